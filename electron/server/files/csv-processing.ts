/** STUB: processing of an uploaded CSV file. */
import type { ServerContext } from '../context';
import type { ImportRow, ProcessOutcome } from '../db/imports-repo';

export function processUploadedFile(_ctx: ServerContext, _row: ImportRow): Promise<ProcessOutcome> {
  return Promise.resolve({ status: 'REJECTED', reason: 'not implemented' });
}
