/**
 * Number literals of JSON text that are not exactly the number JSON.parse reads them as: `12.3400000000000000001`
 * (read as 12.34), `26.0000000000000001` (read as 26) or `1e400` (beyond a double's range). Once parsed, such a
 * number can no longer be told from the one it was rounded to, so it is found in the text. One check, with one set
 * of words, for the service's JSON endpoints (electron/server/http/json-body.ts), `payroll-uploader send` and the JSON
 * panel of Send records, so a file the service would refuse is refused before it is sent, and in its words.
 */
import { isExactNumeral } from './records.schema';

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
export function mayHoldInexactNumber(text: string): boolean {
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

export type InexactNumber = { literal: string; path: (string | number)[] };

/**
 * The first number literal of valid JSON text, outside strings, that is not exactly the number it is read as
 * (see isExactNumeral), with the path of its value. The containers open at a point are a stack: an array's entry is
 * its current index, an object's the position of its current key (decoded only for the message).
 */
export function inexactNumberIn(text: string): InexactNumber | undefined {
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
export function inexactNumberMessage({ literal, path }: InexactNumber): string {
  const where = path.map((p, k) => (typeof p === 'number' ? `[${p}]` : `${k === 0 ? '' : '.'}${p}`)).join('');
  const shown = literal.length <= SHOWN_MAX ? literal : `${literal.slice(0, SHOWN_MAX)}… (${literal.length} characters)`;
  const value = Number(literal);
  const message = Number.isFinite(value)
    ? `the number ${shown} cannot be held exactly (it would be read as ${String(value)}); send at most 15 significant digits`
    : `the number ${shown} is too large to be held (the largest is about 1.8e308)`;
  return where ? `${where}: ${message}` : message;
}

/**
 * Why JSON text holds a number that cannot be held exactly (the first one, named by its path and literal), or
 * undefined when every number in it is read as written. The tokenizer runs only when the cheap scans find a number
 * that may not be read exactly.
 */
export function inexactNumberProblem(text: string): string | undefined {
  if (!mayHoldInexactNumber(text)) return undefined;
  const inexact = inexactNumberIn(text);
  return inexact ? inexactNumberMessage(inexact) : undefined;
}
