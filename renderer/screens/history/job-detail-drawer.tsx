/** One finished file in full: a refused file's reasons (whole-file or per row), an upload's row warnings, and what to do next. */
import { Alert, Button, Code, Drawer, Group, Loader, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { JobDetail, JobView } from '../../../shared/bridge';
import { ErrorAlert } from '../../components/error-alert';
import { FactsTable } from '../../components/facts-table';
import { formatBytes, formatCalendarDate, formatDateTime } from '../../components/format';
import { OutcomeBadge } from '../../components/outcome-badge';
import { ProblemsTable } from '../../components/problems-table';
import { serviceName, serviceNameStart } from '../../components/service-name';
import { keyOf, useBridgeMutation, useBridgeQuery } from '../../data/bridge-queries';
import { useBridgeEvent } from '../../data/use-bridge-event';
import { dropNoticesAbout } from '../../shell/notices';
import { waitsForText } from '../queue/queue-job-row';
import { historyText } from './history-text';

const t = historyText.detail;

/**
 * Where the file is belongs with the facts, and must hold now: put back (`putBack`, the job it went again as), it is
 * in the queue under that path; gone from rejected/ some other way, it was filed there once.
 */
function Facts({ job, putBack }: { job: JobDetail; putBack: JobView | undefined }) {
  const where: [string, string][] = putBack ? [[t.backInQueueAs, putBack.path]]
    : job.archivedPath ? [[job.archivedFileThere ? t.filedAt : t.wasFiledAt, job.archivedPath]] : [];
  const rows: [string, string][] = [
    [t.path, job.path],
    ...where,
    ...(job.service ? [[t.service, serviceNameStart(job.service)] as [string, string]] : []),
    [t.size, formatBytes(job.size)],
    [t.found, formatDateTime(job.foundAt)],
    ...(job.finishedAt ? [[t.finished, formatDateTime(job.finishedAt)] as [string, string]] : []),
    ...(job.fileType ? [[t.type, historyText.types[job.fileType]] as [string, string]] : []),
    ...(job.referenceDate ? [[t.referenceDate, formatCalendarDate(job.referenceDate)] as [string, string]] : []),
    ...(job.importId ? [[t.importId, job.importId] as [string, string]] : []),
  ];
  return <FactsTable facts={rows} labelWidth="35%" />;
}

type Requeue = ReturnType<typeof useRequeue>;

/**
 * Put back, the file has left rejected/: the message above the screens that said it was refused goes, and the facts
 * say where it is now (the answer is the job it goes again as).
 */
function useRequeue(job: JobDetail) {
  const client = useQueryClient();
  return useBridgeMutation('jobs.requeue', {
    onSuccess: () => {
      dropNoticesAbout(client, job.id);
      void client.invalidateQueries({ queryKey: ['jobs.query'] });
      void client.invalidateQueries({ queryKey: ['jobs.get'] });
    },
  });
}

function Actions({ job, requeue }: { job: JobDetail; requeue: Requeue }) {
  const reveal = useBridgeMutation('jobs.reveal');
  // isPending shows a tick later than a second click of a double click: one put-back per press, guarded at once.
  const sending = useRef(false);
  const putBack = () => {
    if (sending.current) return;
    sending.current = true;
    // Where the file was shown to be, and the button to show it, go with it.
    requeue.mutate({ id: job.id }, { onSuccess: () => reveal.reset(), onSettled: () => { sending.current = false; } });
  };
  const gone = !job.archivedFileThere && !requeue.isSuccess;
  // The pressed button goes with the file: focus moves to what took its place, the word that the file is back, so it
  // stays in the drawer (and is read out) instead of falling to the page behind it.
  const backInQueue = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (requeue.isSuccess) backInQueue.current?.focus();
  }, [requeue.isSuccess]);
  return (
    <Stack gap="xs">
      {!requeue.isSuccess && !gone && (
        <Group gap="xs">
          {job.outcome === 'rejected' && (
            <Button loading={requeue.isPending} onClick={putBack}>{t.requeue}</Button>
          )}
          <Button variant="default" loading={reveal.isPending} onClick={() => reveal.mutate({ id: job.id })}>{t.reveal}</Button>
        </Group>
      )}
      {gone && job.archivedPath && <Text size="sm">{t.notThere}</Text>}
      {/* Put back for a service uploads do not go to now, it waits for it: said in the Queue's words. */}
      {requeue.isSuccess && (
        <Alert ref={backInQueue} tabIndex={-1} color="green" role="status">
          {requeue.data.waitsFor ? `${t.requeued} ${waitsForText(requeue.data.waitsFor)}` : t.requeued}
        </Alert>
      )}
      {reveal.data && !reveal.data.revealed && (
        <Text size="sm" role="status">{t.revealedBrowser}<Code style={{ overflowWrap: 'anywhere' }}>{reveal.data.path}</Code></Text>
      )}
      {requeue.error && <ErrorAlert error={requeue.error} />}
      {reveal.error && <ErrorAlert error={reveal.error} />}
    </Stack>
  );
}

/**
 * What the service made of the uploaded file once it processed it, when it said (the local test server does): every
 * row taken, the rows it refused with its reasons, or the whole file refused and why. Nothing while not known.
 */
function ServiceResult({ job }: { job: JobDetail }) {
  const result = job.importResult;
  if (!result) return null;
  if (result.status === 'REJECTED') {
    return (
      <Alert color="red" title={t.wholeRefusedTitle}>
        {result.reason && <Text size="sm">{result.reason}</Text>}
        <Text size="sm">{t.wholeRefusedBody}</Text>
      </Alert>
    );
  }
  const total = result.acceptedRecords + result.rejectedRecords;
  if (result.rejectedRecords === 0) return <Alert color="green">{t.processedAll(total)}</Alert>;
  return (
    <>
      <Alert color="red">{t.processedSome(result.rejectedRecords, total)}</Alert>
      {job.importErrors && job.importErrors.length > 0 && (
        <ProblemsTable problems={job.importErrors} total={result.errorCount} caption={t.refusedRows} />
      )}
    </>
  );
}

function Detail({ job }: { job: JobDetail }) {
  const requeue = useRequeue(job);
  const problems = job.warnings;
  return (
    <Stack gap="md">
      <Group gap="xs"><Text fw={600}>{t.outcome}</Text>{job.outcome && <OutcomeBadge outcome={job.outcome} />}</Group>
      {job.outcome === 'rejected' && (
        <Alert color="red" title={t.reason}>
          <Text size="sm">{job.lastError}</Text>
          {/* It says the file is in the rejected folder: only while it is. */}
          {job.archivedFileThere && !requeue.isSuccess && (
            <Text size="sm" mt="xs">{job.service ? `${t.refusedHelp} ${t.refusedGoesBackTo(serviceName(job.service))}` : t.refusedHelp}</Text>
          )}
        </Alert>
      )}
      {job.outcome === 'uploaded' && (
        <Alert color={job.warningCount > 0 ? 'yellow' : 'green'}>
          {job.warningCount > 0 ? t.uploadedWithWarnings(job.warningCount) : job.service ? t.uploadedTo(serviceName(job.service)) : t.uploadedHelp}
        </Alert>
      )}
      {/* Moved to the duplicates folder, or not filed here at all (another uploader took the file over): then its words. */}
      {job.outcome === 'duplicate' && (
        <Alert color="gray">{job.archivedPath ? t.duplicateHelp : job.lastError ?? t.duplicateNotFiledHelp}</Alert>
      )}
      <ServiceResult job={job} />
      {problems.length > 0 && (
        <ProblemsTable problems={problems} total={job.warningCount}
          caption={job.outcome === 'rejected' ? t.rowProblems : t.rowWarnings} />
      )}
      <Actions job={job} requeue={requeue} />
      <Facts job={job} putBack={requeue.data} />
    </Stack>
  );
}

export function JobDetailDrawer({ id, name, onClose }: { id: number | null; name: string; onClose: () => void }) {
  const detail = useBridgeQuery('jobs.get', { id: id ?? 1 }, { enabled: id !== null });
  // What the service made of the file may come while the drawer is open: it is then shown.
  const client = useQueryClient();
  useBridgeEvent('job', (job) => {
    if (job.id === id && job.importResult && !detail.data?.importResult) void client.invalidateQueries({ queryKey: keyOf('jobs.get', { id: job.id }) });
  });
  return (
    <Drawer opened={id !== null} onClose={onClose} position="right" size="xl" title={name}
      closeButtonProps={{ 'aria-label': t.close }} styles={{ title: { fontWeight: 700, overflowWrap: 'anywhere' } }}>
      {detail.isPending && <Group gap="xs"><Loader size="sm" aria-hidden /><Text>{t.loading}</Text></Group>}
      {detail.error && <ErrorAlert error={detail.error} />}
      {detail.data && <Detail job={detail.data} />}
    </Drawer>
  );
}
