/**
 * One file in flight: its step, its progress while it is read or sent, and retry-now while it waits on the network.
 * Plain elements and a height known from the state (queueRowHeight): a thousand files going through re-render these
 * rows several times a second, and neither Mantine's style props nor measuring each row was cheap enough for that.
 */
import { Badge, Button, Progress } from '@mantine/core';
import { memo } from 'react';
import type { JobProgressView, JobView } from '../../../shared/bridge';
import { PROFILE_TITLES } from '../../../shared/settings.schema';
import { ErrorAlert } from '../../components/error-alert';
import { asSentence, formatBytes, formatDuration, formatSpeed, formatTime } from '../../components/format';
import { useBridgeMutation } from '../../data/bridge-queries';
import { queueText as t } from './queue-text';
import { stepOf, type QueueStep } from './queue-step';

const STEP_COLORS: Record<QueueStep, string> = { found: 'gray', checking: 'blue', uploading: 'blue', waiting: 'yellow', filing: 'green' };

/** The row's height in pixels: a line for the name, one (two while waiting) for what happens, one more for a progress bar. */
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
  const { waitsFor } = job;
  if (waitsFor) return waitsFor.builtIn ? t.waitsForBuiltIn : t.waitsFor(PROFILE_TITLES[waitsFor.profile], waitsFor.address ?? '', waitsFor.clientId);
  if (step === 'uploading') return job.state === 'granting' ? t.stepHelp.granting : t.stepHelp.uploading;
  if (step === 'waiting') {
    return [asSentence(job.lastError), job.nextAttemptAt ? t.nextTry(formatTime(job.nextAttemptAt)) : '', t.attempts(job.attempts)]
      .filter(Boolean).join(' ');
  }
  return t.stepHelp[step];
}

export const QueueJobRow = memo(function QueueJobRow({ job, progress }: { job: JobView; progress: JobProgressView | undefined }) {
  const step = stepOf(job);
  const text = help(job, step);
  return (
    <div className="queue-row">
      <div className="queue-head">
        <span className="queue-name" title={job.name}>{job.name}</span>
        <span className="queue-size">{formatBytes(job.size)}</span>
        <span className="queue-step">
          <Badge color={STEP_COLORS[step]} variant="light">{job.waitsFor ? t.waitsForBadge : t.steps[step]}</Badge>
          {step === 'waiting' && !job.waitsFor && <RetryNow job={job} />}
        </span>
      </div>
      <div className={step === 'waiting' ? 'queue-text queue-text-2' : 'queue-text queue-text-1'} title={text}>{text}</div>
      {progress && <ProgressLine job={job} progress={progress} />}
    </div>
  );
});
