/** What the service made of a file or batch after it arrived, in a few words for its row (history-text.ts). */
import type { ImportResultView } from '../../../shared/bridge';
import { historyText } from './history-text';

const t = historyText.processed;

/**
 * "1 of 2 records refused" (rows for a file), "All refused" for an import refused as a whole; nothing when the service
 * took everything or its result is not known (the outcome then says it all).
 */
export function refusedWords(result: ImportResultView | undefined, unit: 'records' | 'rows'): string | undefined {
  if (!result) return undefined;
  if (result.status === 'REJECTED') return t.wholeRefused;
  if (result.rejectedRecords === 0) return undefined;
  const total = result.acceptedRecords + result.rejectedRecords;
  return unit === 'records' ? t.recordsRefused(result.rejectedRecords, total) : t.rowsRefused(result.rejectedRecords, total);
}
