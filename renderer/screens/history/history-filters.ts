/** The filters of the History screen and the jobs.query request they make. */
import type { FileTypeCode, NO_FILE_TYPE } from '../../../shared';
import type { JobQuery } from '../../../shared/bridge';
import { dayRange } from './day-range';

export type FileFilters = {
  text: string;
  outcome: '' | 'uploaded' | 'rejected' | 'duplicate';
  /** `none`: files whose type was never read (refused before it was known). */
  type: '' | FileTypeCode | typeof NO_FILE_TYPE;
  from: string;
  to: string;
};

export const NO_FILTERS: FileFilters = { text: '', outcome: '', type: '', from: '', to: '' };

export const hasFilters = (f: FileFilters) => f.text !== '' || f.outcome !== '' || f.type !== '' || f.from !== '' || f.to !== '';

/**
 * The query for finished files, newest first. The days found go as the instants they start and end here (the days the
 * table shows), not as dates the core would read in its own zone; an inverted date range is read the right way round.
 */
export function queryOf(f: FileFilters): Omit<JobQuery, 'offset' | 'limit'> {
  const days = dayRange(f.from, f.to);
  return {
    finished: true,
    sort: { by: 'foundAt', dir: 'desc' },
    ...(f.text.trim() ? { text: f.text.trim() } : {}),
    ...(f.outcome ? { outcomes: [f.outcome] } : {}),
    ...(f.type ? { fileTypes: [f.type] } : {}),
    ...(days.since !== undefined ? { foundSince: days.since } : {}),
    ...(days.before !== undefined ? { foundBefore: days.before } : {}),
  };
}
