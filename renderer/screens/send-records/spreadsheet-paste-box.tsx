/**
 * Pasting rows from a spreadsheet: into a text box opened by a button, or straight into any cell of the form
 * (a paste holding tabs or line breaks is taken as rows rather than typed into the one cell). The good rows go into
 * the form; the bad ones are named in a list and left in the box to be corrected, so nothing pasted is lost.
 *
 * The box holds one paste at a time. While it holds rows not added yet (open, or closed with Cancel), rows pasted into
 * a cell are turned away whole, with a message, rather than take those rows' place: either way one of the two pastes
 * would be lost, and the one turned away is still on the clipboard, to be pasted again once the box is empty.
 *
 * The keyboard focus never falls to the page: opening the box puts it in the box, Cancel puts it back on the button
 * that opened it, a cell paste turned away puts it in the box (where the rows that held it back are), and rows added
 * go to the form, whose first added row gets it (`addRows`).
 */
import { Alert, Button, Group, List, Stack, Text, Textarea } from '@mantine/core';
import { useEffect, useRef, type ClipboardEvent } from 'react';
import type { RecordKind } from '../../../shared';
import { FIELDS } from './record-fields';
import { useKeptState } from './screen-memory';
import { sendRecordsText } from './send-records-text';
import { rowsOfPaste } from './spreadsheet-paste';
import type { BatchForm } from './use-batch-form';

const t = sendRecordsText.paste;

export type PasteState = {
  /** The box is open, and what it holds. */
  boxOpen: boolean;
  text: string;
  /** The box was empty when the clerk pressed Add. */
  empty: boolean;
  /** Why rows of the last paste were not added. */
  problems: string[];
  /** None of the last paste was added (the form had no room): the box holds all of it, with nothing to correct. */
  whole?: boolean;
  /** Rows pasted into a cell were turned away, the box still holding rows not added: said until those are added,
   * deleted from the box or put aside with Cancel. */
  cellPasteRefused?: boolean;
};

const CLOSED: PasteState = { boxOpen: false, text: '', empty: false, problems: [] };

/** Where the paste box of a form of `kind` is kept in the screen's memory (rows in it count as not sent: unsent-rows.ts). */
export const pasteMemoryKey = (kind: RecordKind) => `paste:${kind}`;

export function usePastedRows(batch: BatchForm) {
  const { kind } = batch;
  // Kept while the app runs (screen-memory.ts), like the form: rows left to correct survive a visit to another screen.
  const [state, setState] = useKeptState<PasteState>(pasteMemoryKey(kind), CLOSED);
  const holdsRows = state.text.trim() !== '';

  // The button and the box take each other's place: the one pressed leaves the page, so the focus is put on the
  // other once it is there. A cell paste turned away puts it in the box too, which may only now be on the page.
  const openButton = useRef<HTMLButtonElement>(null);
  const box = useRef<HTMLTextAreaElement>(null);
  const focusNext = useRef<'box' | 'openButton' | undefined>(undefined);
  useEffect(() => {
    const target = focusNext.current === 'box' ? box.current : focusNext.current === 'openButton' ? openButton.current : null;
    if (!target) return;
    target.focus();
    focusNext.current = undefined;
  });

  // "2 rows added" would read as the outcome of a paste that added nothing, beside the words that say why.
  const dismissAdded = () => {
    if (batch.added?.from === 'paste') batch.dismissAdded();
  };
  const take = (text: string) => {
    const result = rowsOfPaste(kind, text);
    if (result.rows.length > 0) {
      const added = batch.addRows(result.rows, 'paste', result.notes);
      if (!added.added) {
        setState({ boxOpen: true, text, empty: false, problems: [added.problem], whole: true });
        return;
      }
    } else dismissAdded();
    setState({
      // What could not be taken stays in the box, open, to be corrected and added again.
      boxOpen: result.left !== '',
      text: result.left,
      empty: false,
      problems: result.problems,
    });
  };
  /** For the form around the cells: a multi-cell paste becomes rows. */
  const onPaste = (event: ClipboardEvent<HTMLElement>) => {
    const text = event.clipboardData.getData('text/plain');
    if (!/[\t\n]/.test(text.trim())) return;
    event.preventDefault();
    if (holdsRows) {
      // The box's rows would give way to this paste's leftovers (or go with the box if it is all good): this one is
      // turned away instead, and the box opens on the rows that hold it back.
      focusNext.current = 'box';
      dismissAdded();
      setState({ ...state, boxOpen: true, cellPasteRefused: true });
      return;
    }
    take(text);
  };
  return {
    state,
    take,
    onPaste,
    openButton,
    box,
    add: () => (holdsRows ? take(state.text) : setState({ ...state, empty: true })),
    openBox: () => {
      focusNext.current = 'box';
      setState({ ...state, boxOpen: true });
    },
    // The rows stay in the closed box, to be found again when it opens; the problems about them go, the clerk having
    // put them aside (Add these rows names them again), and so does the word about a cell paste turned away.
    closeBox: () => {
      focusNext.current = 'openButton';
      setState({ ...state, boxOpen: false, empty: false, problems: [], whole: false, cellPasteRefused: false });
    },
    // Once the clerk has emptied the box, a cell paste is taken again: the word that it is not goes.
    setText: (text: string) => setState({ ...state, text, cellPasteRefused: state.cellPasteRefused && text.trim() !== '' }),
  };
}

export type PastedRows = ReturnType<typeof usePastedRows>;

export function SpreadsheetPasteBox({ batch, paste }: { batch: BatchForm; paste: PastedRows }) {
  const { boxOpen, text, empty, problems, whole, cellPasteRefused } = paste.state;
  const columns = FIELDS[batch.kind].map((f) => f.label).join(', ');
  const added = batch.added?.from === 'paste' ? batch.added.count : undefined;

  return (
    <Stack gap="xs">
      {!boxOpen && <Group><Button ref={paste.openButton} variant="default" onClick={paste.openBox}>{t.open}</Button></Group>}
      {boxOpen && (
        <Stack gap="xs">
          <Textarea
            label={t.label}
            description={t.help(columns)}
            rows={4} resize="vertical"
            value={text}
            error={empty ? t.empty : undefined}
            onChange={(e) => paste.setText(e.currentTarget.value)}
            // A paste into the box is the box's text, not rows for the form around it.
            onPaste={(e) => e.stopPropagation()}
            styles={{ input: { fontFamily: 'monospace' } }}
            ref={paste.box}
          />
          {/* Under the box, which has the focus: in view with it. */}
          {cellPasteRefused && <Alert color="red" title={t.cellPasteRefusedTitle} role="alert"><Text size="sm">{t.cellPasteRefused}</Text></Alert>}
          <Group>
            <Button onClick={paste.add}>{t.add}</Button>
            <Button variant="default" onClick={paste.closeBox}>{t.cancel}</Button>
          </Group>
        </Stack>
      )}
      {problems.length > 0 && (
        <Alert color="red" title={t.problemsTitle} role="alert">
          <List size="sm">{problems.map((p, i) => <List.Item key={i}>{p}</List.Item>)}</List>
          {boxOpen && text !== '' && <Text size="sm" mt="xs">{whole ? t.keptWhole : t.keptNote}</Text>}
        </Alert>
      )}
      {added !== undefined && <Text size="sm" role="status">{t.added(added)}</Text>}
    </Stack>
  );
}
