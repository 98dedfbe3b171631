/**
 * The preflight check of a CSV file against the template (docs/service-decisions.md §2): the shared streaming reader of
 * electron/lib/csv (strict UTF-8, header checks, each row against the same zod schema as the server).
 */
import type { RecordError, RecordKind } from '../../../shared';
import { LIMITS } from '../../../shared';
import { readCsvRecords } from '../../lib/csv';

export type CsvVerdict =
  /** `rows`: every data row, or only the first one when rowChecks is false (the rest is not parsed). */
  | { ok: true; kind: RecordKind; rows: number; rejectedRows: number; errors: RecordError[] }
  /** A whole-file problem. `unknownKind`: no template could be told (only when no kind was given). */
  | { ok: false; reason: string; unknownKind: boolean };

export type CsvCheckOptions = {
  /** The kind the file must be (from a file-name rule); absent: told by the header. */
  kind?: RecordKind;
  /**
   * false (preflight 'off') skips the rows: only the header and the first data row are parsed, the rest is only
   * checked as UTF-8 and for size, so a quoting problem further on is left to the service.
   */
  rowChecks: boolean;
  /** Row errors kept (all rows are still counted). */
  maxErrors: number;
};

/** Checks the CSV text of `input`. Never throws for bad content. */
export async function checkCsv(input: AsyncIterable<Buffer>, options: CsvCheckOptions): Promise<CsvVerdict> {
  const result = await readCsvRecords(input, {
    ...(options.kind ? { kind: options.kind } : {}), maxErrors: options.maxErrors, maxBytes: LIMITS.fileBytes,
    headerOnly: !options.rowChecks,
  });
  if (!result.ok) return { ok: false, reason: result.reason, unknownKind: !options.kind && result.kind === undefined };
  if (!options.rowChecks) return { ok: true, kind: result.kind, rows: result.rows, rejectedRows: 0, errors: [] };
  return { ok: true, kind: result.kind, rows: result.rows, rejectedRows: result.rejected, errors: result.errors };
}
