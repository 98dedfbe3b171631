/** Records from a JSON file or pasted JSON go into the census form or the receipts grid, to be checked there. */
import { Alert, Button, FileInput, Group, List, Radio, Stack, Text, Textarea } from '@mantine/core';
import type { RecordKind } from '../../../shared';
import { LIMITS } from '../../../shared';
import { rowsOfJson } from './json-records';
import type { FormRow } from './record-fields';
import { useKeptState } from './screen-memory';
import { sendRecordsText } from './send-records-text';

const t = sendRecordsText.json;

/** Where the pasted JSON is kept in the screen's memory (text in it counts as not sent: unsent-rows.ts). */
export const JSON_TEXT_KEY = 'json:text';

/** Why the last try to load did not put the records in the form, and whether it was the chosen file or the pasted text. */
type LoadProblems = { from: 'file' | 'text'; list: string[] };

const NONE: LoadProblems = { from: 'text', list: [] };

/** `onLoad` puts the rows in a form, or answers why it cannot take them (nothing is put in then). */
export function JsonPanel({ onLoad }: { onLoad: (kind: RecordKind, rows: FormRow[]) => string | undefined }) {
  // Kept while the app runs (screen-memory.ts): pasted JSON is not lost by a visit to another screen.
  const [kind, setKind] = useKeptState<RecordKind>('json:kind', 'census');
  const [text, setText] = useKeptState(JSON_TEXT_KEY, '');
  const [file, setFile] = useKeptState<File | null>('json:file', null);
  const [problems, setProblems] = useKeptState<LoadProblems>('json:problems', NONE);

  const load = (from: LoadProblems['from'], json: string) => {
    const result = rowsOfJson(kind, json);
    const refused = result.problems.length > 0 ? result.problems : [onLoad(kind, result.rows)].filter((p) => p !== undefined);
    setProblems({ from, list: refused });
  };

  const chooseFile = async (chosen: File | null) => {
    setFile(chosen);
    // The problems of a file go with it; those of pasted text stay.
    if (!chosen) {
      if (problems.from === 'file') setProblems(NONE);
      return;
    }
    if (chosen.size > LIMITS.jsonBodyBytes) {
      setProblems({ from: 'file', list: [sendRecordsText.check.tooBig] });
      return;
    }
    load('file', await chosen.text());
  };

  // The problems were found with the kind chosen then ("these look like receipts: choose Receipts"): another choice
  // makes them untrue, so they go with it.
  const chooseKind = (next: string) => {
    setKind(next as RecordKind);
    setProblems(NONE);
  };

  return (
    <Stack gap="md" maw={820}>
      <Text>{t.intro}</Text>
      <Radio.Group label={t.kind} value={kind} onChange={chooseKind}>
        <Group mt={4}>
          <Radio value="census" label={t.kindCensus} />
          <Radio value="receipt" label={t.kindReceipt} />
        </Group>
      </Radio.Group>
      <FileInput label={t.file} placeholder={t.filePlaceholder} accept="application/json,.json" value={file} onChange={(f) => void chooseFile(f)} clearable
        // This placeholder is real text on a button, so it must read at 4.5:1 like any other text.
        styles={{ placeholder: { color: 'var(--mantine-color-dimmed)' } }} />
      <Textarea
        label={t.text}
        rows={5} resize="vertical"
        value={text}
        onChange={(e) => setText(e.currentTarget.value)}
        styles={{ input: { fontFamily: 'monospace' } }}
      />
      <Group>
        <Button onClick={() => (text.trim() ? load('text', text) : setProblems({ from: 'text', list: [t.empty] }))}>{t.load}</Button>
      </Group>
      {problems.list.length > 0 && (
        <Alert color="red" title={t.problemsTitle} role="alert">
          <List size="sm">{problems.list.map((p, i) => <List.Item key={i}>{p}</List.Item>)}</List>
        </Alert>
      )}
    </Stack>
  );
}
