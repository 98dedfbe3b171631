/** Records from a JSON file or pasted JSON go into the census form or the receipts grid, to be checked there. */
import { Alert, Button, FileInput, Group, List, Radio, Stack, Text, Textarea } from '@mantine/core';
import type { RecordKind } from '../../../shared';
import { LIMITS } from '../../../shared';
import { rowsOfJson } from './json-records';
import type { FormRow } from './record-fields';
import { useKeptState } from './screen-memory';
import { sendRecordsText } from './send-records-text';

const t = sendRecordsText.json;

export function JsonPanel({ onLoad }: { onLoad: (kind: RecordKind, rows: FormRow[]) => void }) {
  // Kept while the app runs (screen-memory.ts): pasted JSON is not lost by a visit to another screen.
  const [kind, setKind] = useKeptState<RecordKind>('json:kind', 'census');
  const [text, setText] = useKeptState('json:text', '');
  const [file, setFile] = useKeptState<File | null>('json:file', null);
  const [problems, setProblems] = useKeptState<string[]>('json:problems', []);

  const load = (json: string) => {
    const result = rowsOfJson(kind, json);
    setProblems(result.problems);
    if (result.problems.length === 0) onLoad(kind, result.rows);
  };

  const chooseFile = async (chosen: File | null) => {
    setFile(chosen);
    if (!chosen) return;
    if (chosen.size > LIMITS.jsonBodyBytes) {
      setProblems([sendRecordsText.check.tooBig]);
      return;
    }
    load(await chosen.text());
  };

  return (
    <Stack gap="md" maw={820}>
      <Text>{t.intro}</Text>
      <Radio.Group label={t.kind} value={kind} onChange={(v) => setKind(v)}>
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
        <Button onClick={() => (text.trim() ? load(text) : setProblems([t.empty]))}>{t.load}</Button>
      </Group>
      {problems.length > 0 && (
        <Alert color="red" title={t.problemsTitle} role="alert">
          <List size="sm">{problems.map((p, i) => <List.Item key={i}>{p}</List.Item>)}</List>
        </Alert>
      )}
    </Stack>
  );
}
