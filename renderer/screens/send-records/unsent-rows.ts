/**
 * Rows typed in Send records live only in the page's memory (`screen-memory.ts`), never on disk. The desktop app's
 * window holds them until the app closes; in browser mode a reload or a closed tab would drop them without a word.
 * So, in browser mode, the browser asks before the page goes while any form holds a row not sent (the rows of a send
 * that did not get through stay in the form, so they count too), and the app's own reload (the connection-lost
 * banner's Try again) asks in words first and then leaves without the browser asking a second time.
 */
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useBridge } from '../../data/bridge-context';
import { isEmptyRow } from './record-fields';
import { peekScreenMemory } from './screen-memory';
import { PANEL_KEYS, panelMemoryKey, type PanelMemory } from './use-batch-form';

/** How many rows with something typed in them the Send records forms hold (0 before the screen was first opened). */
export function unsentRowCount(client: QueryClient): number {
  return PANEL_KEYS.reduce((sum, panel) => {
    const memory = peekScreenMemory<PanelMemory>(client, panelMemoryKey(panel));
    const rows = memory?.formControl.getValues('rows') ?? [];
    return sum + rows.filter((row) => !isEmptyRow(row)).length;
  }, 0);
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
