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
import { useBatchForm } from './use-batch-form';

const t = sendRecordsText;
type Tab = keyof typeof t.tabs;
const TERMINATED = { employeeStatus: 'TERMINATED' } as const;

export function SendRecordsScreen() {
  // Everything here outlives the screen (screen-memory.ts): a clerk back from Queue finds the tab and drafts they left.
  const [tab, setTab] = useKeptState<Tab>('tab', 'census');
  const [loaded, setLoaded] = useKeptState<{ kind: RecordKind; count: number; after: number } | undefined>('loaded', undefined);
  const census = useBatchForm('census', 'census', t.census.person);
  const termination = useBatchForm('termination', 'census', () => t.termination.who, TERMINATED);
  const receipts = useBatchForm('receipts', 'receipt', t.receipts.row);

  // Loaded records go after what is in the form, as a paste does: typed work is never replaced without a word.
  const onLoad = (kind: RecordKind, rows: FormRow[]) => {
    const after = (kind === 'census' ? census : receipts).addRows(rows);
    setLoaded({ kind, count: rows.length, after });
    setTab(kind === 'census' ? 'census' : 'receipts');
  };

  const loadedNote = (kind: RecordKind) =>
    loaded?.kind === kind && (
      <Alert color="blue" role="status" withCloseButton onClose={() => setLoaded(undefined)} closeButtonLabel={t.dismiss}>
        <Text size="sm">{t.json.loaded(loaded.count, t.json.loadedInto[kind], loaded.after)}</Text>
      </Alert>
    );

  return (
    <Stack gap="md">
      <PageHeader title={t.title} description={t.intro} />
      <Tabs value={tab} onChange={(v) => v && setTab(v as Tab)} keepMounted>
        <Tabs.List aria-label={t.tabsLabel}>
          {(Object.keys(t.tabs) as Tab[]).map((key) => <Tabs.Tab key={key} value={key}>{t.tabs[key]}</Tabs.Tab>)}
        </Tabs.List>
        <Tabs.Panel value="census" pt="md"><Stack gap="md">{loadedNote('census')}<CensusPanel batch={census} /></Stack></Tabs.Panel>
        <Tabs.Panel value="termination" pt="md"><TerminationPanel batch={termination} /></Tabs.Panel>
        <Tabs.Panel value="receipts" pt="md"><Stack gap="md">{loadedNote('receipt')}<ReceiptsPanel batch={receipts} /></Stack></Tabs.Panel>
        <Tabs.Panel value="json" pt="md"><JsonPanel onLoad={onLoad} /></Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
