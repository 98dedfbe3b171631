/**
 * Rows typed in Send records live only in the page's memory (`screen-memory.ts`), never on disk. The desktop app's
 * window holds them until the app closes; in browser mode a reload or a closed tab would drop them without a word.
 * So, in browser mode, the browser asks before the page goes while any form holds a row not sent (the rows of a send
 * that did not get through stay in the form, so they count too) or a paste box or the JSON box holds any, and the
 * app's own reload (the connection-lost banner's Try again) asks in words first and then leaves without the browser
 * asking a second time.
 */
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useBridge } from '../../data/bridge-context';
import { RECORD_KINDS } from '../../../shared';
import { JSON_TEXT_KEY } from './json-panel';
import { isEmptyRow } from './record-fields';
import { peekScreenMemory, type Kept } from './screen-memory';
import { pastedRowCount } from './spreadsheet-paste';
import { pasteMemoryKey, type PasteState } from './spreadsheet-paste-box';
import { PANEL_KEYS, panelMemoryKey, type PanelMemory } from './use-batch-form';

/**
 * How many rows not sent Send records holds (0 before the screen was first opened): the forms' rows with something
 * typed in them, the rows in the paste boxes (those not added yet, and those left there to be corrected: "nothing is
 * lost" holds only while the page does), and the records in the JSON box (text that is no list of records yet counts
 * as one: it is work typed all the same).
 */
export function unsentRowCount(client: QueryClient): number {
  const inForms = PANEL_KEYS.reduce((sum, panel) => {
    const memory = peekScreenMemory<PanelMemory>(client, panelMemoryKey(panel));
    const rows = memory?.formControl.getValues('rows') ?? [];
    return sum + rows.filter((row) => !isEmptyRow(row)).length;
  }, 0);
  const inPasteBoxes = RECORD_KINDS.reduce((sum, kind) => {
    const box = peekScreenMemory<Kept<PasteState>>(client, pasteMemoryKey(kind))?.get();
    return sum + (box ? pastedRowCount(kind, box.text) : 0);
  }, 0);
  const json = peekScreenMemory<Kept<string>>(client, JSON_TEXT_KEY)?.get() ?? '';
  return inForms + inPasteBoxes + jsonRecordCount(json);
}

/** The records of the JSON box's text: those of a list, else 1 for any text at all. */
function jsonRecordCount(text: string): number {
  if (text.trim() === '') return 0;
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? Math.max(1, parsed.length) : 1;
  } catch {
    return 1;
  }
}

/** Set once the clerk chose to reload and lose the rows: the browser must not ask again. */
let leavingOnPurpose = false;

/** Reloads the page; the clerk has already been asked about unsent rows, or there are none. */
export function reloadPage(): void {
  leavingOnPurpose = true;
  window.location.reload();
}

/**
 * Browser mode: the browser's own "Leave site?" before a reload, a closed tab or a typed address while rows are not
 * sent. Not in the desktop app, whose window would then refuse to close without saying why.
 */
export function useUnsentRowsGuard(): void {
  const client = useQueryClient();
  const { platform } = useBridge();
  useEffect(() => {
    if (platform !== 'browser') return undefined;
    const ask = (event: BeforeUnloadEvent) => {
      if (leavingOnPurpose || unsentRowCount(client) === 0) return;
      event.preventDefault();
      // Older Chromium asks only when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [client, platform]);
}
