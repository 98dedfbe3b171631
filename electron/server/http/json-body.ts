/**
 * The JSON body parser of every JSON endpoint. The bytes must be UTF-8: Fastify's own parser decodes with
 * replacement characters, so a batch in Latin-1 was accepted with its names garbled (a CSV with the same
 * bytes is refused). A `__proto__` key is refused by name, as the record schemas never hold one. A number
 * written with more digits than a double holds (`12.3400000000000000001`, read as 12.34) or beyond its range
 * (`1e400`) is refused by its text: once parsed, it could no longer be told from the number it was rounded to.
 */
import { isUtf8 } from 'node:buffer';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isExactNumeral } from '../../../shared';
import { HttpError } from './http-error';

// `__proto__` written plainly or with \u escapes, as an object key.
const PROTO_KEY_RE = /"(?:_|\\u005[fF]){2}(?:p|\\u0070)(?:r|\\u0072)(?:o|\\u006[fF])(?:t|\\u0074)(?:o|\\u006[fF])(?:_|\\u005[fF]){2}"\s*:/;

/** The parsed value of a JSON body, or a 400 naming what is wrong with it. */
export function parseJsonBody(body: Buffer): unknown {
  if (body.length === 0) throw new HttpError(400, ['the request body is empty; send a JSON value']);
  if (!isUtf8(body)) throw new HttpError(400, ['the body is not valid UTF-8 text; send the JSON encoded as UTF-8']);
  const text = body.toString('utf8');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new HttpError(400, [`the body is not valid JSON: ${(error as Error).message}`]);
  }
  // The cheap test first: a 5 MB batch is scanned by the regular expression only when it may hold the key.
  if ((text.includes('proto') || text.includes('\\u')) && PROTO_KEY_RE.test(text)) {
    throw new HttpError(400, ['the body must not use the key __proto__ (it is no field of any record)']);
  }
  // Likewise: the tokenizer runs only when the cheap scans find a number that may not be read exactly.
  if (mayHoldInexactNumber(text)) {
    const inexact = inexactNumberIn(text);
    if (inexact) throw new HttpError(400, [inexactMessage(inexact)]);
  }
  return value;
}

const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
const isDigitOrPoint = (c: number) => isDigit(c) || c === 0x2e;
const DIGIT_THEN_EXPONENT_RE = /\d[eE]/;

/**
 * Whether the text may hold a number literal that is not exactly the number it is read as: one with 16 or more
 * digits and points in a row, or with an exponent. Without either, a literal has at most 15 significant digits and
 * lies from 1e-13 to 1e15, so it is always read exactly. Digits inside strings count too (a false alarm only costs
 * the tokenizer's pass). A run of 16 holds one of every 16th characters and reaches 8 places to one side of it, so
 * only those are looked at first: for a 5 MB census batch both scans take some 3 ms, JSON.parse some 16 ms.
 */
function mayHoldInexactNumber(text: string): boolean {
  const n = text.length;
  for (let k = 15; k < n; k += 16) {
    if (!isDigitOrPoint(text.charCodeAt(k))) continue;
    if (!isDigitOrPoint(text.charCodeAt(k - 8)) && !isDigitOrPoint(text.charCodeAt(k + 8))) continue;
    let start = k;
    while (start > 0 && isDigitOrPoint(text.charCodeAt(start - 1))) start--;
    let end = k + 1;
    while (end < n && isDigitOrPoint(text.charCodeAt(end))) end++;
    if (end - start >= 16) return true;
  }
  return DIGIT_THEN_EXPONENT_RE.test(text);
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** The index just after the string that opens at `at` (its closing quote is the first one not escaped). */
function stringEnd(text: string, at: number): number {
  for (let quote = text.indexOf('"', at + 1); quote !== -1; quote = text.indexOf('"', quote + 1)) {
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
  }
  return text.length;
}

const isNumberChar = (c: number) => isDigit(c) || c === 0x2e || c === 0x2b || c === 0x2d || c === 0x45 || c === 0x65;

type Inexact = { literal: string; path: (string | number)[] };

/**
 * The first number literal of valid JSON text, outside strings, that is not exactly the number it is read as
 * (see isExactNumeral), with the path of its value. The containers open at a point are a stack: an array's entry is
 * its current index, an object's the position of its current key (decoded only for the message).
 */
export function inexactNumberIn(text: string): Inexact | undefined {
  const arrays: boolean[] = [];
  const at: number[] = [];
  let expectKey = false;
  for (let i = 0; i < text.length;) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = stringEnd(text, i);
      if (expectKey) at[at.length - 1] = i;
      i = end;
      continue;
    }
    if (c === 0x2d || isDigit(c)) {
      let end = i + 1;
      let exponent = false;
      for (let d = text.charCodeAt(end); end < text.length && isNumberChar(d); d = text.charCodeAt(++end)) {
        if (d === 0x45 || d === 0x65) exponent = true;
      }
      const digits = end - i - (c === 0x2d ? 1 : 0);
      if ((exponent || digits > 15) && !isExactNumeral(text.slice(i, end))) {
        const path = at.map((p, k) => (arrays[k] ? p : (JSON.parse(text.slice(p, stringEnd(text, p))) as string)));
        return { literal: text.slice(i, end), path };
      }
      i = end;
      continue;
    }
    if (c === 0x7b || c === 0x5b) { // { [
      arrays.push(c === 0x5b);
      at.push(c === 0x5b ? 0 : -1);
      expectKey = c === 0x7b;
    } else if (c === 0x7d || c === 0x5d) { // } ]
      arrays.pop();
      at.pop();
      expectKey = false;
    } else if (c === 0x2c) { // ,
      const top = at.length - 1;
      if (arrays[top]) at[top] = at[top]! + 1;
      expectKey = !arrays[top];
    } else if (c === 0x3a) { // :
      expectKey = false;
    }
    i++;
  }
  return undefined;
}

const SHOWN_MAX = 40;

/** `[0].grossAnnualSalary: the number 12.3400000000000000001 cannot be held exactly (it would be read as 12.34); …` */
function inexactMessage({ literal, path }: Inexact): string {
  const where = path.map((p, k) => (typeof p === 'number' ? `[${p}]` : `${k === 0 ? '' : '.'}${p}`)).join('');
  const shown = literal.length <= SHOWN_MAX ? literal : `${literal.slice(0, SHOWN_MAX)}… (${literal.length} characters)`;
  const value = Number(literal);
  const message = Number.isFinite(value)
    ? `the number ${shown} cannot be held exactly (it would be read as ${String(value)}); send at most 15 significant digits`
    : `the number ${shown} is too large to be held (the largest is about 1.8e308)`;
  return where ? `${where}: ${message}` : message;
}

const rawBodies = new WeakMap<FastifyRequest, Buffer>();

/** The bytes of a request's JSON body as received (a batch kept until processing is stored as sent, not re-serialised). */
export const rawJsonBody = (request: FastifyRequest): Buffer | undefined => rawBodies.get(request);

/** Installs the parser for application/json and every +json type. */
export function installJsonBody(app: FastifyInstance): void {
  const parse = (request: FastifyRequest, body: Buffer, done: (error: Error | null, value?: unknown) => void) => {
    try {
      const value = parseJsonBody(body);
      rawBodies.set(request, body);
      done(null, value);
    } catch (error) {
      done(error as Error);
    }
  };
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, parse);
  app.addContentTypeParser(/^application\/[a-z0-9.-]+\+json\s*(;.*)?$/i, { parseAs: 'buffer' }, parse);
}
