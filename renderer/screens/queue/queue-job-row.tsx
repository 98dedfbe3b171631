/**
 * One file in flight: its step, its progress while it is read or sent, and retry-now while it waits on the network.
 * Plain elements and a height known from the state (queueRowHeight): a thousand files going through re-render these
 * rows several times a second, and neither Mantine's style props nor measuring each row was cheap enough for that.
 * So nothing of unknown height goes into a row: a failed Retry now is told by the screen (RetryFailedNotice), above
 * the list, where its whole text fits and where it stays when the row scrolls away or changes. Why a file waits can
 * be longer than the row's two lines (a service's reason, a narrow window, 200 % zoom): the row's Details button
 * opens the file's drawer (QueueJobDrawer), which shows it whole. The head is one line, the name cut short to fit,
 * or on a narrow window two, the name on its own: never a number of lines that depends on the name.
 */
import { Badge, Button, Progress } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { memo } from 'react';
import { BridgeError, type JobProgressView, type JobView } from '../../../shared/bridge';
import { PROFILE_TITLES } from '../../../shared/settings.schema';
import { asSentence, formatBytes, formatDuration, formatSpeed, formatTime } from '../../components/format';
import { serviceName } from '../../components/service-name';
import { useBridgeMutation } from '../../data/bridge-queries';
import { queueKey } from '../../data/use-bridge-event';
import { queueText as t } from './queue-text';
import { stepOf, type QueueStep } from './queue-step';

/** A Retry now the core refused or could not take, for the screen to tell. */
export type RetryFailure = { name: string; error: unknown };
/** Called with undefined when Retry now is pressed (the last failure is over), and with the failure if it fails. */
export type OnRetryOutcome = (failure: RetryFailure | undefined) => void;

export const STEP_COLORS: Record<QueueStep, string> = { found: 'gray', checking: 'blue', uploading: 'blue', waiting: 'yellow', filing: 'green' };

/**
 * The row's height in pixels: a line for the name (two on a narrow window: the name, then its size and step), one
 * (two while waiting, the rest in the drawer) for what happens, one more for a progress bar.
 */
export function queueRowHeight(job: JobView | undefined, hasProgress: boolean, narrow: boolean): number {
  if (!job) return 86;
  const step = stepOf(job);
  return 86 + (hasProgress ? 46 : 0) + (step === 'waiting' ? 24 : 0) + (narrow ? 30 : 0);
}

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
    <div className="queue-progress">
      <Progress value={percent} size="md" aria-label={uploading ? t.progressLabel(job.name) : t.checkingLabel(job.name)}
        transitionDuration={150} />
      <div className="queue-text">{parts.join(' · ')}</div>
    </div>
  );
}

function RetryNow({ job, onOutcome }: { job: JobView; onOutcome: OnRetryOutcome }) {
  const client = useQueryClient();
  // Options of the mutation itself, not of mutate(): they run even if the row has scrolled away meanwhile.
  const retry = useBridgeMutation('jobs.retryNow', {
    onMutate: () => onOutcome(undefined),
    onError: (error) => {
      onOutcome({ name: job.name, error });
      // The core knows better than the row (the file waits for another service, has moved on or is gone): show that.
      if (error instanceof BridgeError && (error.code === 'conflict' || error.code === 'not_found')) {
        void client.invalidateQueries({ queryKey: queueKey });
      }
    },
  });
  return (
    <Button size="xs" variant="light" loading={retry.isPending} aria-label={t.retryNowLabel(job.name)}
      onClick={() => retry.mutate({ id: job.id })}>{t.retryNow}</Button>
  );
}

/** Which service a file waits for, and what makes it go (History says it too, of a file it put back). */
export function waitsForText(waitsFor: NonNullable<JobView['waitsFor']>): string {
  const service = serviceName(waitsFor);
  return waitsFor.builtIn ? t.waitsForBuiltIn(service) : t.waitsFor(service, PROFILE_TITLES[waitsFor.profile], waitsFor.clientId);
}

/** The step's badge: a file that waits with no next try set does not wait to retry, it waits for something. */
export function stepBadge(job: JobView, step: QueueStep): string {
  if (job.waitsFor) return t.waitsForBadge;
  return step === 'waiting' && !job.nextAttemptAt ? t.waitingUntimed : t.steps[step];
}

/** What happens to the file, in words: the row shows its first lines, the drawer all of it. */
export function jobText(job: JobView, step: QueueStep): string {
  const { waitsFor } = job;
  if (waitsFor) return waitsForText(waitsFor);
  if (step === 'uploading') return job.state === 'granting' ? t.stepHelp.granting : t.stepHelp.uploading;
  if (step === 'waiting') {
    // No try yet (a receipt file waiting for its census file): no count of tries to give.
    return [asSentence(job.lastError), job.nextAttemptAt ? t.nextTry(formatTime(job.nextAttemptAt)) : '', job.attempts > 0 ? t.attempts(job.attempts) : '']
      .filter(Boolean).join(' ');
  }
  return t.stepHelp[step];
}

export const QueueJobRow = memo(function QueueJobRow({ job, progress, onRetryOutcome, onDetails }: {
  job: JobView; progress: JobProgressView | undefined; onRetryOutcome: OnRetryOutcome; onDetails: (job: JobView) => void;
}) {
  const step = stepOf(job);
  const text = jobText(job, step);
  return (
    <div className="queue-row">
      <div className="queue-head">
        <span className="queue-name" title={job.name}>{job.name}</span>
        <span className="queue-size">{formatBytes(job.size)}</span>
        <span className="queue-step">
          <Badge color={STEP_COLORS[step]} variant="light">{stepBadge(job, step)}</Badge>
          {step === 'waiting' && !job.waitsFor && <RetryNow job={job} onOutcome={onRetryOutcome} />}
          {step === 'waiting' && (
            <Button size="xs" variant="default" aria-label={t.details.label(job.name)} aria-haspopup="dialog"
              onClick={() => onDetails(job)}>{t.details.button}</Button>
          )}
        </span>
      </div>
      <div className={step === 'waiting' ? 'queue-text queue-text-2' : 'queue-text queue-text-1'} title={text}>{text}</div>
      {progress && <ProgressLine job={job} progress={progress} />}
    </div>
  );
});
