/**
 * Pasting rows from a spreadsheet: into a text box opened by a button, or straight into any cell of the form
 * (a paste holding tabs or line breaks is taken as rows rather than typed into the one cell).
 */
import { Alert, Button, Group, List, Stack, Text, Textarea } from '@mantine/core';
import { useState, type ClipboardEvent } from 'react';
import type { RecordKind } from '../../../shared';
import type { FormRow } from './record-fields';
import { FIELDS } from './record-fields';
import { sendRecordsText } from './send-records-text';
import { rowsOfPaste } from './spreadsheet-paste';

const t = sendRecordsText.paste;

export function usePastedRows(kind: RecordKind, onRows: (rows: FormRow[]) => void) {
  const [problems, setProblems] = useState<string[]>([]);
  const [added, setAdded] = useState<number>();
  const take = (text: string): boolean => {
    const result = rowsOfPaste(kind, text);
    setProblems(result.problems);
    setAdded(result.problems.length ? undefined : result.rows.length);
    if (result.problems.length === 0) onRows(result.rows);
    return result.problems.length === 0;
  };
  /** For the form around the cells: a multi-cell paste becomes rows. */
  const onPaste = (event: ClipboardEvent<HTMLElement>) => {
    const text = event.clipboardData.getData('text/plain');
    if (!/[\t\n]/.test(text.trim())) return;
    event.preventDefault();
    take(text);
  };
  return { problems, added, take, onPaste };
}

export type PastedRows = ReturnType<typeof usePastedRows>;

export function SpreadsheetPasteBox({ kind, paste }: { kind: RecordKind; paste: PastedRows }) {
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const [empty, setEmpty] = useState(false);
  const columns = FIELDS[kind].map((f) => f.label).join(', ');
  const add = () => {
    if (text.trim() === '') { setEmpty(true); return; }
    setEmpty(false);
    if (paste.take(text)) { setText(''); setOpen(false); }
  };
  return (
    <Stack gap="xs">
      {!open && <Group><Button variant="default" onClick={() => setOpen(true)}>{t.open}</Button></Group>}
      {open && (
        <Stack gap="xs">
          <Textarea
            label={t.label}
            description={t.help(columns)}
            rows={4} resize="vertical"
            value={text}
            error={empty ? t.empty : undefined}
            onChange={(e) => setText(e.currentTarget.value)}
            styles={{ input: { fontFamily: 'monospace' } }}
            data-autofocus
          />
          <Group>
            <Button onClick={add}>{t.add}</Button>
            <Button variant="default" onClick={() => { setOpen(false); setEmpty(false); }}>{t.cancel}</Button>
          </Group>
        </Stack>
      )}
      {paste.problems.length > 0 && (
        <Alert color="red" title={t.problemsTitle} role="alert">
          <List size="sm">{paste.problems.map((p, i) => <List.Item key={i}>{p}</List.Item>)}</List>
        </Alert>
      )}
      {paste.added !== undefined && <Text size="sm" role="status">{t.added(paste.added)}</Text>}
    </Stack>
  );
}
