/** Queue: the watched folder and every file on its way, updated live from the core's events. */
import { Paper, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import type { JobView } from '../../../shared/bridge';
import { EmptyState } from '../../components/empty-state';
import { ErrorAlert } from '../../components/error-alert';
import { FOCUS_FALLBACK } from '../../components/focus-fallback';
import { PageHeader } from '../../components/page-header';
import { useWindowList } from '../../components/use-window-list';
import { useBridgeQuery } from '../../data/bridge-queries';
import { progressKey, useQueue, type ProgressById } from '../../data/use-bridge-event';
import { FolderHeader } from './folder-header';
import { QueueJobDrawer, type OpenJob } from './queue-job-drawer';
import { QueueJobRow, queueRowHeight, type RetryFailure } from './queue-job-row';
import { queueText as t } from './queue-text';
import { RetryFailedNotice } from './retry-failed-notice';

const NO_PROGRESS: ProgressById = {};
const NO_JOBS: JobView[] = [];

export function QueueScreen() {
  const queue = useQueue();
  const { data: progress = NO_PROGRESS } = useQuery<ProgressById>({ queryKey: progressKey, queryFn: () => ({}), staleTime: Infinity });
  const folder = useBridgeQuery('watch.state', {}).data;
  const items = queue.data?.items ?? NO_JOBS;
  // Not watched, or no folder chosen yet (which is never watched): a file saved now would not appear.
  const notWatched = folder !== undefined && (!folder.folder || folder.state !== 'watching');
  // Found, but not taken up (they could not be claimed or journaled): they are no jobs, and not dealt with either.
  const untaken = folder?.state === 'watching' ? folder.untaken ?? 0 : 0;
  const narrow = useMediaQuery('(max-width: 48em)') ?? false;
  // The setter is stable, so the memoised rows do not render again for it.
  const [retryFailure, setRetryFailure] = useState<RetryFailure>();
  const [openJob, setOpenJob] = useState<OpenJob>();
  const openDetails = useCallback((job: JobView) => setOpenJob({ id: job.id, name: job.name }), []);
  // Heights follow from each file's state, so nothing is measured while files stream through.
  const { listRef, virtualizer, scrollMargin } = useWindowList(items.length, {
    size: (index) => queueRowHeight(items[index], progress[items[index]?.id ?? -1] !== undefined, narrow),
    key: (index) => items[index]?.id ?? index,
    deps: [items, progress, narrow],
  });

  return (
    <>
      <PageHeader title={t.title} description={t.description} />
      <FolderHeader />
      {/* Always there, so the list below knows when a message here moves it (useWindowList watches what is above). */}
      <div>{retryFailure && <RetryFailedNotice failure={retryFailure} onClose={() => setRetryFailure(undefined)} />}</div>
      {queue.error && <ErrorAlert error={queue.error} title={queue.data ? t.refreshError : t.loadError} />}
      {/* Always there too: files that wait in the folder, beside a queue that is not empty. */}
      <div>{items.length > 0 && untaken > 0 && <Text mb="xs">{t.untaken.also(untaken)}</Text>}</div>
      {queue.data && items.length === 0 && (notWatched
        ? <EmptyState title={t.emptyNotWatched.title}>{t.emptyNotWatched.body}</EmptyState>
        : untaken > 0
          ? <EmptyState title={t.untaken.title(untaken)}>{t.untaken.body(untaken)}</EmptyState>
          : <EmptyState title={t.empty.title}>{t.empty.body}</EmptyState>)}
      {items.length > 0 && (
        <>
          <Text fw={600} mb="xs" aria-live="polite">{t.count(queue.data?.total ?? items.length)}</Text>
          <Paper withBorder>
            {/*
              A row's Retry now and Details go when the file moves on, the row when it leaves the queue: the focus they
              had goes to the row, then to the list (focus-fallback.ts), not to the page. So does the focus a closing
              Details drawer gives back when its button is gone.
            */}
            <div ref={listRef} role="list" aria-label={t.listLabel} {...FOCUS_FALLBACK}
              style={{ position: 'relative', height: virtualizer.getTotalSize() }}>
              {virtualizer.getVirtualItems().map((row) => {
                const job = items[row.index];
                if (!job) return null;
                return (
                  <div key={row.key} role="listitem" data-index={row.index} {...FOCUS_FALLBACK}
                    style={{ position: 'absolute', top: 0, left: 0, width: '100%', height: row.size, transform: `translateY(${row.start - scrollMargin}px)` }}>
                    <QueueJobRow job={job} progress={progress[job.id]} onRetryOutcome={setRetryFailure} onDetails={openDetails} />
                  </div>
                );
              })}
            </div>
          </Paper>
        </>
      )}
      <QueueJobDrawer open={openJob} items={items} onClose={() => setOpenJob(undefined)} />
    </>
  );
}
