/**
 * What `watch` says of an uploaded file's processing result (local mode), and whether the file failed: an upload the
 * service took is not yet payroll data it imported. A file the service refused as a whole after its upload, or with
 * any of its rows refused, failed, and `watch --once` exits 1 for it: a scheduled task's operator reads the exit
 * code, and rows of payroll data that did not go in need someone to act (docs/uploader.md).
 */
import type { ImportResult } from '../../shared';
import { printableName, printableText } from '../lib/printable-name';

/** Processing-result lines shown per file. */
const RESULT_ERRORS_SHOWN = 20;

export type ImportOutcome = { failed: boolean; text: string };

/** Why the file failed, and what to do, or undefined when every row went in. */
function failure(result: ImportResult): string | undefined {
  if (result.status === 'REJECTED') {
    return `failed: the service refused the whole file after its upload: ${printableText(result.reason ?? 'no reason given')}; `
      + 'none of its rows was imported: correct the file and export it again';
  }
  if (result.rejectedRecords === 0) return undefined;
  if (result.acceptedRecords === 0) return 'failed: none of its rows was imported: correct them and export the file again';
  // Sent again whole, the file would import its accepted rows a second time.
  const refused = result.rejectedRecords === 1 ? '1 of its rows was' : `${result.rejectedRecords} of its rows were`;
  return `failed: ${refused} not imported: correct ${result.rejectedRecords === 1 ? 'it' : 'them'} and send only ${result.rejectedRecords === 1 ? 'it' : 'them'} again `
    + '(payroll-uploader send, or Send records in the app)';
}

export function describeImport(name: string, result: ImportResult): ImportOutcome {
  const head = `processed ${printableName(name)} (import ${result.id})`;
  const why = failure(result);
  if (result.status === 'REJECTED') return { failed: true, text: `${head}: ${why}` };
  const counts = `${head}: ${result.acceptedRecords} row(s) accepted, ${result.rejectedRecords} refused`;
  const lines = [why ? `${counts}; ${why}` : counts];
  // A message may quote a cell of the file: it never moves the cursor.
  for (const e of result.errors.slice(0, RESULT_ERRORS_SHOWN)) lines.push(`    ${e.line !== undefined ? `line ${e.line}: ` : ''}${printableText(e.message)}`);
  if (result.errors.length > RESULT_ERRORS_SHOWN) lines.push(`    ... and ${result.errors.length - RESULT_ERRORS_SHOWN} more`);
  return { failed: why !== undefined, text: lines.join('\n') };
}

/** The server's address as said: without a user name or password it may carry, nor a trailing slash. */
function shownServer(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    parsed.search = '';
    parsed.hash = '';
    return printableText(parsed.href.replace(/\/+$/, ''));
  } catch {
    return 'the local server';
  }
}

/**
 * What `watch` says of an uploaded file whose processing result it could not learn: the service had not finished
 * processing it when the wait ended (`waitS` seconds), or the result could not be fetched (`fetchError`). The file is
 * not called done: it may still have rows refused, so `watch --once` exits 4 for it (docs/uploader.md), and the clerk
 * is told where its result can be read. `serverUrl` is the local server the file went to.
 */
export function describeUnknownImport(name: string, importId: string, serverUrl: string, why: { waitS: number } | { fetchError: string }): string {
  const cause = 'waitS' in why
    ? `the service had not finished processing it after ${why.waitS} s`
    : `its processing result could not be fetched (${printableText(why.fetchError)})`;
  return `result not known yet: ${printableName(name)} was uploaded (import ${importId}), but ${cause}, so whether all its rows `
    + `were imported is not known: ask the local server for it (GET ${shownServer(serverUrl)}/local/v1/imports/${importId}; `
    + 'a built-in server stopped with this run finishes it when the app or a watch starts it again) before counting the file as done';
}
