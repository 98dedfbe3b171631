import { opendir } from 'node:fs/promises';
import { isDenied } from '../../lib/fs-errors';

/** Why this user may not list the folder (an access error), or undefined when it can be opened for listing. */
export async function listingDenied(folder: string): Promise<unknown> {
  try {
    // Opening it is enough: a listing denied is denied at the open, without reading a large folder's entries.
    await (await opendir(folder)).close();
    return undefined;
  } catch (error) {
    return isDenied(error) ? error : undefined;
  }
}
