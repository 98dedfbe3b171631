/**
 * Streaming reader of CSV files in the template of docs/service-decisions.md §2, shared by the local
 * server (processing of uploaded files) and the uploader (preflight before an upload).
 * The bytes are read once: checked as strict UTF-8, parsed with csv-parse, each row validated
 * with the record schemas of shared/. Memory stays bounded whatever the file size.
 */
import { createReadStream } from 'node:fs';
import type { CsvError } from 'csv-parse';
import { parse } from 'csv-parse';
import type { CensusRecord, ReceiptRecord, RecordError, RecordKind } from '../../../shared';
import { FILE_TYPES, LONE_CR_REASON, LONE_CR_RE, detectDelimiter, fileTypeOfKind, headerProblems, kindOfHeader, normalizeHeader, notAHeaderRow, quickRowCheck, recordErrors, recordSchemas, rowToRecord } from '../../../shared';
import { createUtf8Check } from './utf8-check';

export type CsvRecord = CensusRecord | ReceiptRecord;

export type CsvReadOptions = {
  /** The template the file must follow; detected from the header when absent. */
  kind?: RecordKind;
  /** Errors kept in the result (default 1000); the counts always cover every row. */
  maxErrors?: number;
  /** A file with more bytes is a whole-file problem (the uploader passes LIMITS.fileBytes). */
  maxBytes?: number;
  /** Called for each accepted record, in file order, with the line the record starts on. A throw aborts the read. */
  onRecord?: (record: CsvRecord, line: number) => void;
  /**
   * Stop parsing once the header is checked and one data row is read (so a header without rows is still refused);
   * the remaining bytes are still read and checked as UTF-8 and against maxBytes, never parsed. A quoting problem
   * further on then goes unnoticed. Default false: every row is parsed and validated.
   */
  headerOnly?: boolean;
};

export type CsvReadSuccess = {
  ok: true;
  kind: RecordKind;
  /** Header names as matched (trimmed, BOM dropped). */
  header: string[];
  delimiter: ',' | ';';
  /** Data rows (blank lines and rows of empty cells are not rows); with headerOnly, only those read (one). */
  rows: number;
  accepted: number;
  rejected: number;
  /** Per-row problems, `line` = physical line the row starts on (header = 1), in file order. */
  errors: RecordError[];
  /** Errors beyond maxErrors that were counted but not kept. */
  omittedErrors: number;
  bytes: number;
};

/** A whole-file problem: the file cannot be used at all. `kind` is set when the template was known. */
export type CsvReadFailure = { ok: false; reason: string; kind?: RecordKind; bytes: number };

export type CsvReadResult = CsvReadSuccess | CsvReadFailure;

/** What the caller hands us: a Readable, or any async iterable of byte chunks. */
export type CsvInput = AsyncIterable<Uint8Array | string>;

export const DEFAULT_MAX_ERRORS = 1000;
/** A record longer than this is almost always a quote that is never closed; stop instead of buffering the file. */
export const MAX_RECORD_CHARS = 1024 * 1024;
const HEAD_MAX_CHARS = 64 * 1024;
const HEADER_ONLY_SLICE = 16 * 1024;

export const NOT_UTF8_REASON = 'the file is not UTF-8 text; export or save it as "CSV UTF-8"';

const templateName = (kind: RecordKind) => FILE_TYPES[fileTypeOfKind(kind)].name;

function newlinesIn(cells: readonly string[]): number {
  let count = 0;
  for (const cell of cells) {
    if (!cell.includes('\n')) continue;
    for (let i = cell.indexOf('\n'); i !== -1; i = cell.indexOf('\n', i + 1)) count++;
  }
  return count;
}

/** The first complete line with content (blank lines before the header are skipped like any blank line). */
function headerLineOf(text: string): string | undefined {
  let start = 0;
  for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
    const line = text.slice(start, end);
    if (line.trim() !== '') return line;
    start = end + 1;
  }
  return undefined;
}

const isBlank = (cells: readonly string[]) => cells.every((c) => c.trim() === '');

function quotingReason(error: CsvError, line: number): string {
  switch (error.code) {
    case 'CSV_QUOTE_NOT_CLOSED':
      return `a quoted field in the record starting at line ${line} is never closed`;
    case 'CSV_MAX_RECORD_SIZE':
      return `the record starting at line ${line} is longer than ${MAX_RECORD_CHARS} characters (often a quote that is never closed)`;
    case 'CSV_INVALID_CLOSING_QUOTE':
      return `in the record starting at line ${line}, a closing quote is followed by something other than the delimiter or a line end`;
    default:
      return `the CSV cannot be parsed in the record starting at line ${line}: ${error.message}`;
  }
}

function headerReason(kind: RecordKind | undefined, header: string[]): { reason?: string; kind?: RecordKind } {
  // A data row read as the header: said as it is, not as a header that fits no template (its cells are not quoted).
  const notHeader = notAHeaderRow(header);
  if (notHeader !== undefined) return { ...(kind ? { kind } : {}), reason: notHeader };
  if (kind) {
    const problems = headerProblems(kind, header);
    return problems.length ? { kind, reason: `the header does not fit the ${templateName(kind)} template: ${problems.join('; ')}` } : { kind };
  }
  const detected = kindOfHeader(header);
  if (detected) return { kind: detected };
  const each = (['census', 'receipt'] as const).map((k) => `${templateName(k)}: ${headerProblems(k, header).join('; ')}`);
  return { reason: `the header fits no file template (${each.join('. ')})` };
}

/** Reads CSV records from a stream of bytes; see the module comment. Never throws for bad content, only for a failing source or onRecord. */
export async function readCsvRecords(input: CsvInput, options: CsvReadOptions = {}): Promise<CsvReadResult> {
  const maxErrors = options.maxErrors ?? DEFAULT_MAX_ERRORS;
  const utf8 = createUtf8Check();
  const headDecoder = new TextDecoder('utf-8'); // only the text before the parser starts, already checked by utf8
  let bytes = 0;
  let line = 0; // physical lines consumed by the records seen so far
  let header: string[] | undefined;
  let kind = options.kind;
  let schema = kind ? recordSchemas[kind] : undefined;
  // Rows the quick check is sure of skip zod (several times cheaper); zod decides, and words, everything else.
  let quick: ((cells: readonly string[]) => Record<string, unknown> | undefined) | undefined;
  let delimiter: ',' | ';' = ',';
  let rows = 0;
  let accepted = 0;
  let rejected = 0;
  let omittedErrors = 0;
  const errors: RecordError[] = [];
  let reason: string | undefined; // a whole-file problem found while parsing
  let enough = false; // headerOnly: the header and a data row are read; the rest is only decoded
  let thrown: { error: unknown } | undefined; // onRecord failed: rethrown to the caller

  const keep = (found: RecordError[]) => {
    for (const e of found) {
      if (errors.length < maxErrors) errors.push(e);
      else omittedErrors++;
    }
  };

  const onCells = (cells: string[]) => {
    if (reason !== undefined || thrown || enough) return;
    const start = line + 1;
    line += 1 + newlinesIn(cells);
    if (isBlank(cells)) return;
    if (!header) {
      header = normalizeHeader(cells);
      const checked = headerReason(kind, header);
      kind = checked.kind;
      if (checked.reason !== undefined) reason = checked.reason;
      else {
        schema = recordSchemas[checked.kind as RecordKind];
        quick = quickRowCheck(checked.kind as RecordKind, header);
      }
      return;
    }
    rows++;
    if (options.headerOnly) enough = true;
    if (cells.length !== header.length) {
      rejected++;
      keep([{ line: start, message: `the row has ${cells.length} cells but the header has ${header.length} columns` }]);
      return;
    }
    let record = quick?.(cells) as CsvRecord | undefined;
    if (!record) {
      const parsed = (schema as (typeof recordSchemas)[RecordKind]).safeParse(rowToRecord(header, cells));
      if (!parsed.success) {
        rejected++;
        keep(recordErrors(parsed.error, { line: start }));
        return;
      }
      record = parsed.data;
    }
    accepted++;
    try {
      options.onRecord?.(record, start);
    } catch (error) {
      thrown = { error };
    }
  };

  let parser: ReturnType<typeof parse> | undefined;
  let parseError: CsvError | undefined;
  const startParser = (headText: string) => {
    delimiter = detectDelimiter(headerLineOf(`${headText}\n`) ?? '');
    const p = parse({
      delimiter, bom: true, relax_column_count: true, relax_quotes: true,
      record_delimiter: ['\r\n', '\n'], max_record_size: MAX_RECORD_CHARS,
    });
    p.on('data', onCells);
    p.on('error', (error: CsvError) => {
      // Past the first data row a headerOnly read no longer parses (the parser may choke on a record cut short).
      if (!enough) parseError ??= error;
    });
    return p;
  };
  const write = (p: NonNullable<typeof parser>, chunk: Buffer) =>
    new Promise<void>((resolve) => {
      p.write(chunk, () => resolve());
    });
  const stopped = () => reason !== undefined || thrown !== undefined || parseError !== undefined;
  // headerOnly: small slices, so parsing ends near the first data row instead of at the end of a 1 MB chunk.
  const feed = async (p: NonNullable<typeof parser>, chunk: Buffer) => {
    if (!options.headerOnly) return write(p, chunk);
    for (let at = 0; at < chunk.length && !enough && !stopped(); at += HEADER_ONLY_SLICE) await write(p, chunk.subarray(at, at + HEADER_ONLY_SLICE));
  };
  const failure = (why: string): CsvReadFailure => ({ ok: false, reason: why, ...(kind ? { kind } : {}), bytes });

  let headText = '';
  let held: Buffer[] = [];
  try {
    for await (const raw of input) {
      const chunk = typeof raw === 'string' ? Buffer.from(raw) : Buffer.isBuffer(raw) ? raw : Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
      bytes += chunk.length;
      if (options.maxBytes !== undefined && bytes > options.maxBytes) {
        return failure(`the file is larger than ${options.maxBytes} bytes`);
      }
      if (!utf8.push(chunk)) return failure(NOT_UTF8_REASON);
      if (enough) continue;
      if (!parser) {
        // The delimiter comes from the header line, so hold the bytes until it is complete.
        headText += headDecoder.decode(chunk, { stream: true });
        held.push(chunk);
        if (headerLineOf(headText) === undefined) {
          if (headText.length < HEAD_MAX_CHARS) continue;
          // No line end but CRs: lines that end with CR alone. Said now, before the parser takes the whole file for
          // one record and refuses it as too long (as if a quote were never closed).
          if (LONE_CR_RE.test(headText)) return failure(LONE_CR_REASON);
        }
        parser = startParser(headText);
        for (const h of held) await feed(parser, h);
        held = [];
      } else {
        await feed(parser, chunk);
      }
      if (stopped()) break;
      if (enough) {
        // Parsing is over; the bytes still to come are only decoded, so the parser's buffers can go now.
        parser.destroy();
        parser = undefined;
      }
    }
    if (!stopped() && !utf8.end()) return failure(NOT_UTF8_REASON);
    if (!stopped() && !enough) {
      parser ??= startParser(headText);
      for (const h of held) await feed(parser, h);
      const p = parser;
      await new Promise<void>((resolve) => {
        p.once('end', resolve);
        p.once('error', () => resolve());
        p.end();
        p.resume();
      });
    }
  } finally {
    parser?.destroy();
  }

  if (thrown) throw thrown.error;
  if (reason !== undefined) return failure(reason);
  if (parseError) return failure(quotingReason(parseError, line + 1));
  if (!header || !kind) return failure('the file is empty: it has no header row');
  if (rows === 0) return failure('the file has a header but no data rows');
  return { ok: true, kind, header, delimiter, rows, accepted, rejected, errors, omittedErrors, bytes };
}

/** readCsvRecords over a file on disk. */
export function readCsvFile(path: string, options: CsvReadOptions = {}): Promise<CsvReadResult> {
  return readCsvRecords(createReadStream(path), options);
}
