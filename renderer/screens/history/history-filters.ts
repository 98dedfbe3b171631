/** The filters of the History screen and the jobs.query request they make. */
import type { FileTypeCode, NO_FILE_TYPE } from '../../../shared';
import type { JobQuery } from '../../../shared/bridge';

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

/** The query for finished files, newest first; an inverted date range is read the right way round. */
export function queryOf(f: FileFilters): Omit<JobQuery, 'offset' | 'limit'> {
  const [from, to] = f.from && f.to && f.from > f.to ? [f.to, f.from] : [f.from, f.to];
  return {
    finished: true,
    sort: { by: 'foundAt', dir: 'desc' },
    ...(f.text.trim() ? { text: f.text.trim() } : {}),
    ...(f.outcome ? { outcomes: [f.outcome] } : {}),
    ...(f.type ? { fileTypes: [f.type] } : {}),
    ...(from ? { foundFrom: from } : {}),
    ...(to ? { foundTo: to } : {}),
  };
}
