/** One file in flight: its step, its progress while it is read or sent, and retry-now while it waits on the network. */
import { Badge, Button, Group, Progress, Stack, Text } from '@mantine/core';
import { memo } from 'react';
import type { JobProgressView, JobView } from '../../../shared/bridge';
import { ErrorAlert } from '../../components/error-alert';
import { formatBytes, formatDuration, formatSpeed, formatTime } from '../../components/format';
import { useBridgeMutation } from '../../data/bridge-queries';
import { queueText as t } from './queue-text';
import { stepOf, type QueueStep } from './queue-step';

const STEP_COLORS: Record<QueueStep, string> = { found: 'gray', checking: 'blue', uploading: 'blue', waiting: 'yellow', filing: 'green' };

function ProgressLine({ job, progress }: { job: JobView; progress: JobProgressView }) {
  const percent = progress.total > 0 ? Math.min(100, (progress.bytes / progress.total) * 100) : 0;
  const uploading = progress.phase === 'uploading';
  const speed = progress.bytesPerSecond;
  const parts = [t.progress(formatBytes(progress.bytes), formatBytes(progress.total))];
  if (uploading && speed && speed > 0) {
    parts.push(t.speed(formatSpeed(speed)));
    parts.push(t.timeLeft(formatDuration((progress.total - progress.bytes) / speed)));
  }
  return (
    <Stack gap={4}>
      <Progress value={percent} size="md" aria-label={uploading ? t.progressLabel(job.name) : t.checkingLabel(job.name)}
        transitionDuration={150} />
      <Text size="sm">{parts.join(' · ')}</Text>
    </Stack>
  );
}

function RetryNow({ job }: { job: JobView }) {
  const retry = useBridgeMutation('jobs.retryNow');
  return (
    <>
      <Button size="xs" variant="light" loading={retry.isPending} aria-label={t.retryNowLabel(job.name)}
        onClick={() => retry.mutate({ id: job.id })}>{t.retryNow}</Button>
      {retry.error && <ErrorAlert error={retry.error} />}
    </>
  );
}

function help(job: JobView, step: QueueStep): string {
  if (step === 'uploading') return job.state === 'granting' ? t.stepHelp.granting : t.stepHelp.uploading;
  if (step === 'waiting') {
    return [job.lastError, job.nextAttemptAt ? t.nextTry(formatTime(job.nextAttemptAt)) : '', t.attempts(job.attempts)]
      .filter(Boolean).join(' ');
  }
  return t.stepHelp[step];
}

export const QueueJobRow = memo(function QueueJobRow({ job, progress }: { job: JobView; progress: JobProgressView | undefined }) {
  const step = stepOf(job);
  return (
    <Stack gap={6} py="sm" px="md">
      <Group justify="space-between" gap="xs" wrap="wrap">
        <Group gap="xs" style={{ minWidth: 0 }}>
          <Text fw={600} style={{ overflowWrap: 'anywhere' }}>{job.name}</Text>
          <Text size="sm" c="dimmed">{formatBytes(job.size)}</Text>
        </Group>
        <Group gap="xs">
          <Badge color={STEP_COLORS[step]} variant="light">{t.steps[step]}</Badge>
          {step === 'waiting' && <RetryNow job={job} />}
        </Group>
      </Group>
      <Text size="sm">{help(job, step)}</Text>
      {progress && <ProgressLine job={job} progress={progress} />}
    </Stack>
  );
});
