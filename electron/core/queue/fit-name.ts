/**
 * Names the uploader makes from a user's file name: a clash's `census (1).csv`, the notes `<name>.error.txt` and
 * `<name>.warnings.txt`, a hidden temporary copy. File systems allow 255 bytes per name (ext4, APFS, NTFS counts 255
 * UTF-16 units, never more than the UTF-8 bytes), and the service accepts names of up to 255 characters: a long
 * name of the user's plus our additions would not fit, and every attempt to file it would fail again. The part of the
 * name that came from the user is shortened instead; what we add, and the extension, stay whole.
 */

/** The longest file name, in UTF-8 bytes, that every file system the uploader writes to takes. */
export const NAME_MAX_BYTES = 255;

/**
 * `stem` followed by `tail`, the stem cut (at the end, by whole characters: a multi-byte character is never split)
 * so that the whole name fits NAME_MAX_BYTES. A tail that alone is too long is a programming error.
 */
export function fitName(stem: string, tail: string): string {
  let room = NAME_MAX_BYTES - Buffer.byteLength(tail);
  if (room < 0) throw new Error(`the name ending ${tail} is longer than a file name may be`);
  if (Buffer.byteLength(stem) <= room) return stem + tail;
  let kept = '';
  // for..of walks code points: a character outside the BMP (two UTF-16 units) is kept or dropped whole.
  for (const char of stem) {
    const bytes = Buffer.byteLength(char);
    if (bytes > room) break;
    room -= bytes;
    kept += char;
  }
  return kept + tail;
}
