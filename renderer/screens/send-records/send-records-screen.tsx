/** Send records: new hires, a termination or receipts, typed, pasted from a spreadsheet or loaded from JSON. */
import { Alert, Stack, Tabs, Text } from '@mantine/core';
import type { RecordKind } from '../../../shared';
import { PageHeader } from '../../components/page-header';
import { CensusPanel } from './census-panel';
import { JsonPanel } from './json-panel';
import { ReceiptsPanel } from './receipts-panel';
import type { FormRow } from './record-fields';
import { useKeptState } from './screen-memory';
import { sendRecordsText } from './send-records-text';
import { TerminationPanel } from './termination-panel';
import { useBatchForm, type BatchForm } from './use-batch-form';

const t = sendRecordsText;
type Tab = keyof typeof t.tabs;
const TERMINATED = { employeeStatus: 'TERMINATED' } as const;

export function SendRecordsScreen() {
  // Everything here outlives the screen (screen-memory.ts): a clerk back from Queue finds the tab and drafts they left.
  const [tab, setTab] = useKeptState<Tab>('tab', 'census');
  const census = useBatchForm('census', 'census', t.census.person);
  const termination = useBatchForm('termination', 'census', () => t.termination.who, TERMINATED);
  const receipts = useBatchForm('receipts', 'receipt', t.receipts.row);

  // Loaded records go after what is in the form, as a paste does: typed work is never replaced without a word. A form
  // without room for them all takes none, and the JSON panel says why.
  const onLoad = (kind: RecordKind, rows: FormRow[]): string | undefined => {
    const result = (kind === 'census' ? census : receipts).addRows(rows, 'json');
    if (!result.added) return result.problem;
    setTab(kind === 'census' ? 'census' : 'receipts');
    return undefined;
  };

  // The note is the draft's (use-batch-form.ts): it goes when the loaded records are sent or the clerk starts over.
  const loadedNote = (batch: BatchForm) =>
    batch.added?.from === 'json' && (
      <Alert color="blue" role="status" withCloseButton onClose={batch.dismissAdded} closeButtonLabel={t.dismiss}>
        <Text size="sm">{t.json.loaded(batch.added.count, t.json.loadedInto[batch.kind], batch.added.after)}</Text>
      </Alert>
    );

  return (
    <Stack gap="md">
      <PageHeader title={t.title} description={t.intro} />
      <Tabs value={tab} onChange={(v) => v && setTab(v as Tab)} keepMounted>
        <Tabs.List aria-label={t.tabsLabel}>
          {(Object.keys(t.tabs) as Tab[]).map((key) => <Tabs.Tab key={key} value={key}>{t.tabs[key]}</Tabs.Tab>)}
        </Tabs.List>
        <Tabs.Panel value="census" pt="md"><Stack gap="md">{loadedNote(census)}<CensusPanel batch={census} /></Stack></Tabs.Panel>
        <Tabs.Panel value="termination" pt="md"><TerminationPanel batch={termination} /></Tabs.Panel>
        <Tabs.Panel value="receipts" pt="md"><Stack gap="md">{loadedNote(receipts)}<ReceiptsPanel batch={receipts} /></Stack></Tabs.Panel>
        <Tabs.Panel value="json" pt="md"><JsonPanel onLoad={onLoad} /></Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
