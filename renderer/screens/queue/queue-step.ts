/** Which of the clerk's four steps a job's state is in. */
import type { JobView } from '../../../shared/bridge';

export type QueueStep = 'found' | 'checking' | 'uploading' | 'waiting' | 'filing';

/** A job of another service than the one uploads go to now waits for it, whatever step it stopped at. */
export function stepOf(job: JobView): QueueStep {
  if (job.waitsFor) return 'waiting';
  switch (job.state) {
    case 'found': return 'found';
    case 'hashing':
    case 'validating': return 'checking';
    case 'granting':
    case 'uploading': return 'uploading';
    case 'waiting': return 'waiting';
    default: return 'filing';
  }
}
