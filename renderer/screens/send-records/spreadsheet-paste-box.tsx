/**
 * Pasting rows from a spreadsheet: into a text box opened by a button, or straight into any cell of the form
 * (a paste holding tabs or line breaks is taken as rows rather than typed into the one cell). The good rows go into
 * the form; the bad ones are named in a list and left in the box to be corrected, so nothing pasted is lost.
 */
import { Alert, Button, Group, List, Stack, Text, Textarea } from '@mantine/core';
import type { ClipboardEvent } from 'react';
import type { RecordKind } from '../../../shared';
import type { FormRow } from './record-fields';
import { FIELDS } from './record-fields';
import { useKeptState } from './screen-memory';
import { sendRecordsText } from './send-records-text';
import { rowsOfPaste } from './spreadsheet-paste';

const t = sendRecordsText.paste;

type PasteState = {
  /** The box is open, and what it holds. */
  boxOpen: boolean;
  text: string;
  /** The box was empty when the clerk pressed Add. */
  empty: boolean;
  /** Why rows of the last paste were not added. */
  problems: string[];
  /** How many rows the last paste put into the form. */
  added?: number;
};

const CLOSED: PasteState = { boxOpen: false, text: '', empty: false, problems: [] };

export function usePastedRows(kind: RecordKind, onRows: (rows: FormRow[]) => void) {
  // Kept while the app runs (screen-memory.ts), like the form: rows left to correct survive a visit to another screen.
  const [state, setState] = useKeptState<PasteState>(`paste:${kind}`, CLOSED);
  const take = (text: string) => {
    const result = rowsOfPaste(kind, text);
    if (result.rows.length > 0) onRows(result.rows);
    setState({
      // What could not be taken stays in the box, open, to be corrected and added again.
      boxOpen: result.left !== '',
      text: result.left,
      empty: false,
      problems: result.problems,
      ...(result.rows.length > 0 ? { added: result.rows.length } : {}),
    });
  };
  /** For the form around the cells: a multi-cell paste becomes rows. */
  const onPaste = (event: ClipboardEvent<HTMLElement>) => {
    const text = event.clipboardData.getData('text/plain');
    if (!/[\t\n]/.test(text.trim())) return;
    event.preventDefault();
    take(text);
  };
  return {
    state,
    take,
    onPaste,
    add: () => (state.text.trim() === '' ? setState({ ...state, empty: true }) : take(state.text)),
    openBox: () => setState({ ...state, boxOpen: true }),
    closeBox: () => setState({ ...state, boxOpen: false, empty: false }),
    setText: (text: string) => setState({ ...state, text }),
  };
}

export type PastedRows = ReturnType<typeof usePastedRows>;

export function SpreadsheetPasteBox({ kind, paste }: { kind: RecordKind; paste: PastedRows }) {
  const { boxOpen, text, empty, problems, added } = paste.state;
  const columns = FIELDS[kind].map((f) => f.label).join(', ');
  return (
    <Stack gap="xs">
      {!boxOpen && <Group><Button variant="default" onClick={paste.openBox}>{t.open}</Button></Group>}
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
            data-autofocus
          />
          <Group>
            <Button onClick={paste.add}>{t.add}</Button>
            <Button variant="default" onClick={paste.closeBox}>{t.cancel}</Button>
          </Group>
        </Stack>
      )}
      {problems.length > 0 && (
        <Alert color="red" title={t.problemsTitle} role="alert">
          <List size="sm">{problems.map((p, i) => <List.Item key={i}>{p}</List.Item>)}</List>
          {boxOpen && text !== '' && <Text size="sm" mt="xs">{t.keptNote}</Text>}
        </Alert>
      )}
      {added !== undefined && <Text size="sm" role="status">{t.added(added)}</Text>}
    </Stack>
  );
}
