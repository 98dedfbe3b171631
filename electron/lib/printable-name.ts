/**
 * File names as the uploader prints them (terminal, log lines, `.error.txt`/`.warnings.txt`): control characters,
 * line breaks and the Unicode marks that reorder or hide text (the characters a file name may not hold in a
 * handshake, shared/files.schema.ts) are written as `\u202e`-style escapes (`\u{e0001}` beyond U+FFFF), so a file name
 * can neither forge a line of output nor make one name look like another. A backslash is doubled, so an escape in
 * the output always means the character and a name that holds the text `\u202e` stays tellable from one that holds it.
 */
import { UNSAFE_FILE_NAME_CLASS } from '../../shared';

const UNSAFE = new RegExp(`[\\\\${UNSAFE_FILE_NAME_CLASS}]`, 'gu');
const UNSAFE_ONLY = new RegExp(`[${UNSAFE_FILE_NAME_CLASS}]`, 'gu');

const escaped = (code: number) => (code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, '0')}`);

export function printableName(name: string): string {
  return name.replace(UNSAFE, (c) => (c === '\\' ? '\\\\' : escaped(c.codePointAt(0) ?? 0)));
}

/**
 * Text that holds names among other words (a log message, a file-system error with its path) with the same characters
 * escaped, but backslashes left as they are: a Windows path stays readable.
 */
export function printableText(text: string): string {
  return text.replace(UNSAFE_ONLY, (c) => escaped(c.codePointAt(0) ?? 0));
}
