/** Which of the clerk's four steps a job's state is in. */
import type { JobView } from '../../../shared/bridge';

export type QueueStep = 'found' | 'checking' | 'uploading' | 'waiting' | 'filing';

export function stepOf(job: JobView): QueueStep {
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
