/**
 * File names as the uploader prints them (terminal, log lines, `.error.txt`/`.warnings.txt`): control characters,
 * line breaks and the Unicode marks that reorder or hide text are written as `\u202e`-style escapes, so a file name
 * can neither forge a line of output nor make one name look like another. A backslash is doubled, so an escape in
 * the output always means the character and a name that holds the text `\u202e` stays tellable from one that holds it.
 */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const UNSAFE = /[\\\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

export function printableName(name: string): string {
  return name.replace(UNSAFE, (c) => (c === '\\' ? '\\\\' : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));
}
