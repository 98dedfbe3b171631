/**
 * The preflight check of a CSV file against the template (decisions.md section 2), streaming: strict UTF-8, the
 * delimiter from the header line, whole-file problems, then each row against the same zod schema as the server.
 */
import { parse, type Parser } from 'csv-parse';
import { once } from 'node:events';
import type { RecordError, RecordKind } from '../../../shared';
import {
  detectDelimiter, headerProblems, kindOfHeader, normalizeHeader, recordErrors, recordSchemas, rowToRecord,
} from '../../../shared';
import { describeError } from './fs-codes';

export type CsvVerdict =
  | { ok: true; kind: RecordKind; rows: number; rejectedRows: number; errors: RecordError[] }
  /** A whole-file problem. `unknownKind`: the header matched no template (only when no kind was given). */
  | { ok: false; reason: string; unknownKind?: boolean };

export type CsvCheckOptions = {
  /** The kind the file must be (from a file-name rule); absent: told by the header. */
  kind?: RecordKind;
  /** false skips the per-row schema checks (preflight 'off'); whole-file checks always run. */
  rowChecks: boolean;
  /** Row errors kept (all rows are still counted). */
  maxErrors: number;
};

type State = { kind?: RecordKind; header?: string[]; rows: number; rejectedRows: number; errors: RecordError[]; verdict?: CsvVerdict };

function onHeader(state: State, raw: string[], options: CsvCheckOptions): void {
  const header = normalizeHeader(raw);
  // Lines of blanks before the header are not a header.
  if (header.every((name) => name === '')) return;
  const kind = options.kind ?? kindOfHeader(header);
  if (!kind) {
    state.verdict = { ok: false, unknownKind: true, reason: 'its header row matches neither the census nor the receipt template' };
    return;
  }
  const problems = headerProblems(kind, header);
  if (problems.length > 0) {
    state.verdict = { ok: false, reason: `the header row does not fit the ${kind} template: ${problems.join('; ')}` };
    return;
  }
  state.kind = kind;
  state.header = header;
}

function onRow(state: State, cells: string[], line: number, options: CsvCheckOptions): void {
  state.rows += 1;
  if (!options.rowChecks || !state.kind || !state.header) return;
  const problems: RecordError[] = [];
  if (cells.length > state.header.length) {
    problems.push({ line, message: `the row has ${cells.length} cells, the header only ${state.header.length}` });
  }
  const parsed = recordSchemas[state.kind].safeParse(rowToRecord(state.header, cells));
  if (!parsed.success) problems.push(...recordErrors(parsed.error, { line }));
  if (problems.length === 0) return;
  state.rejectedRows += 1;
  for (const p of problems) if (state.errors.length < options.maxErrors) state.errors.push(p);
}

const NOT_UTF8 = 'the file is not UTF-8 text (save it as "CSV UTF-8")';

/** Checks the CSV text of `input`; reads it to its end even once the verdict is known. Never throws for bad input. */
export async function checkCsv(input: AsyncIterable<Buffer>, options: CsvCheckOptions): Promise<CsvVerdict> {
  const state: State = { rows: 0, rejectedRows: 0, errors: [] };
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let parser: Parser | undefined;
  let ended: Promise<unknown> = Promise.resolve();
  let start = '';

  const openParser = (text: string): Parser => {
    const firstLine = text.split(/\r?\n/).find((line) => line.trim() !== '') ?? '';
    const p = parse({ delimiter: detectDelimiter(firstLine), bom: true, relax_column_count: true, skip_empty_lines: true, info: true });
    p.on('data', ({ record, info }: { record: string[]; info: { lines: number } }) => {
      if (state.verdict) return;
      if (!state.header) onHeader(state, record, options);
      else onRow(state, record, info.lines, options);
    });
    p.on('error', (error) => {
      state.verdict ??= { ok: false, reason: `the file is not valid CSV: ${describeError(error)}` };
    });
    ended = once(p, 'end').catch(() => undefined);
    return p;
  };
  const write = async (p: Parser, text: string): Promise<void> => {
    if (text && !p.write(text)) await Promise.race([once(p, 'drain').catch(() => undefined), ended]);
  };
  const decode = (chunk?: Buffer): string | undefined => {
    try {
      return chunk ? decoder.decode(chunk, { stream: true }) : decoder.decode();
    } catch {
      state.verdict = { ok: false, reason: NOT_UTF8 };
      return undefined;
    }
  };

  for await (const chunk of input) {
    // Keep draining after a verdict, so whoever tees the stream (the MD5 hash) still sees every byte.
    if (state.verdict) continue;
    const text = decode(chunk);
    if (text === undefined) continue;
    if (parser) {
      await write(parser, text);
    } else {
      start += text;
      // The delimiter is taken from the header line, so the parser starts once that line is complete.
      if (/\S[^\n]*\n/.test(start)) {
        parser = openParser(start);
        await write(parser, start);
      }
    }
  }
  if (state.verdict) return state.verdict;
  const rest = decode();
  if (rest === undefined) return { ok: false, reason: NOT_UTF8 };
  if (!parser) {
    start += rest;
    if (start.replace(/^\uFEFF/, '').trim() === '') return { ok: false, reason: 'the file has no header row' };
    parser = openParser(start);
    await write(parser, start);
  } else {
    await write(parser, rest);
  }
  parser.end();
  await ended;
  if (state.verdict) return state.verdict;
  if (!state.header || !state.kind) return { ok: false, reason: 'the file has no header row' };
  if (state.rows === 0) return { ok: false, reason: 'the file has a header row but no data rows' };
  return { ok: true, kind: state.kind, rows: state.rows, rejectedRows: state.rejectedRows, errors: state.errors };
}
