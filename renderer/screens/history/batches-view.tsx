/** Batches of records sent from the app, newest first, filterable by outcome, type and date. */
import { Button, Group, NativeSelect, Stack, Table, Text, TextInput } from '@mantine/core';
import { useMemo, useState } from 'react';
import type { BatchView } from '../../../shared/bridge';
import { EmptyState } from '../../components/empty-state';
import { ErrorAlert } from '../../components/error-alert';
import { formatDateTime, formatNumber } from '../../components/format';
import { OutcomeBadge } from '../../components/outcome-badge';
import { serviceNameStart } from '../../components/service-name';
import { useBridgeQuery } from '../../data/bridge-queries';
import { dayRange, inDayRange } from './day-range';
import { historyText as t } from './history-text';
import { refusedWords } from './processed-words';
import { ScrollTable } from '../../components/scroll-table';
import { problemLine } from '../send-records/problem-words';
import { sendRecordsText } from '../send-records/send-records-text';

type BatchFilters = { outcome: '' | BatchView['state']; kind: '' | BatchView['kind']; from: string; to: string };
const NONE: BatchFilters = { outcome: '', kind: '', from: '', to: '' };
const STEP = 100;

/** The records of a batch by the names the form gave them: History words a refusal as the form did. */
const ROW_NAMES: Record<BatchView['kind'], (n: number) => string> = { census: sendRecordsText.census.person, receipt: sendRecordsText.receipts.row };

/**
 * Why a batch did not get through: a refusal one problem a line, in the form's words; any other reason as it is. Sent,
 * the records the service refused once it processed them, in the same words; or why it refused the batch as a whole.
 */
function ProblemCell({ batch }: { batch: BatchView }) {
  const result = batch.importResult;
  if (result?.status === 'REJECTED') return <>{t.processed.batchWholeRefused(result.reason ?? t.processed.noReason)}</>;
  const problems = batch.problems ?? (result ? batch.importErrors : undefined);
  if (!problems) return <>{batch.error ?? ''}</>;
  const more = result && !batch.problems ? result.errorCount - problems.length : 0;
  return (
    <>
      {problems.map((p, i) => <Text key={i} size="sm">{problemLine(batch.kind, p, ROW_NAMES[batch.kind])}</Text>)}
      {more > 0 && <Text size="sm">{t.processed.more(more)}</Text>}
    </>
  );
}

/** The outcome, and below it what the service made of the batch when it refused records of it ("1 of 2 records refused"). */
function OutcomeCell({ batch }: { batch: BatchView }) {
  const refused = refusedWords(batch.importResult, 'records');
  if (!refused) return <OutcomeBadge outcome={batch.state} />;
  return (
    <Stack gap={4} align="flex-start">
      <OutcomeBadge outcome={batch.state} />
      <Text size="sm" fw={600}>{refused}</Text>
    </Stack>
  );
}

export function BatchesView() {
  // The core keeps batches few (each is a clerk's send), so the newest 1,000 are fetched and filtered here.
  const batches = useBridgeQuery('batches.list', { offset: 0, limit: 1000 });
  const [filters, setFilters] = useState<BatchFilters>(NONE);
  const [shown, setShown] = useState(STEP);
  const set = <K extends keyof BatchFilters>(key: K, v: BatchFilters[K]) => { setFilters({ ...filters, [key]: v }); setShown(STEP); };
  // The days sent by the rule the Files tab's days found follow (day-range.ts).
  const filtered = useMemo(() => {
    const days = dayRange(filters.from, filters.to);
    return (batches.data?.items ?? []).filter((b) =>
      (!filters.outcome || b.state === filters.outcome) && (!filters.kind || b.kind === filters.kind) && inDayRange(b.createdAt, days))
      .sort((a, b) => b.createdAt - a.createdAt);
  }, [batches.data, filters]);
  const filtering = filters !== NONE;

  return (
    <>
      <Group gap="sm" align="flex-end" mb="md" wrap="wrap">
        <NativeSelect label={t.filters.outcome} value={filters.outcome} w="11rem"
          data={[{ value: '', label: t.filters.all }, ...Object.entries(t.batchOutcomes).map(([value, label]) => ({ value, label }))]}
          onChange={(e) => set('outcome', e.currentTarget.value as BatchFilters['outcome'])} />
        <NativeSelect label={t.filters.type} value={filters.kind} w="9rem"
          data={[{ value: '', label: t.filters.all }, ...Object.entries(t.kinds).map(([value, label]) => ({ value, label }))]}
          onChange={(e) => set('kind', e.currentTarget.value as BatchFilters['kind'])} />
        <TextInput label={t.filters.sentFrom} type="date" value={filters.from} onChange={(e) => set('from', e.currentTarget.value)} w="11rem" />
        <TextInput label={t.filters.sentTo} type="date" value={filters.to} onChange={(e) => set('to', e.currentTarget.value)} w="11rem" />
        {filtering && <Button variant="subtle" onClick={() => setFilters(NONE)}>{t.filters.clear}</Button>}
      </Group>
      {batches.error && <ErrorAlert error={batches.error} />}
      {batches.data && filtered.length === 0 && (filtering
        ? <EmptyState title={t.emptyBatchesFiltered.title}>{t.emptyBatchesFiltered.body}</EmptyState>
        : <EmptyState title={t.emptyBatches.title}>{t.emptyBatches.body}</EmptyState>)}
      {filtered.length > 0 && (
        <>
          <Text fw={600} mb="xs">{t.batchCount(filtered.length)}</Text>
          <ScrollTable label={t.batchTableLabel} minWidth={560}>
            <Table striped withTableBorder aria-label={t.batchTableLabel}>
              <Table.Thead>
                <Table.Tr>
                  {Object.values(t.batchColumns).map((label) => <Table.Th key={label} scope="col">{label}</Table.Th>)}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {filtered.slice(0, shown).map((b) => (
                  <Table.Tr key={b.id}>
                    <Table.Td>{t.batchName(t.kinds[b.kind], b.id)}</Table.Td>
                    {/* Room for "Outcome unknown" whole: a narrow column cut it to "OUTCOM…". */}
                    <Table.Td style={{ minWidth: '12rem' }}><OutcomeCell batch={b} /></Table.Td>
                    <Table.Td>{formatNumber(b.records)}</Table.Td>
                    <Table.Td>{formatDateTime(b.createdAt)}</Table.Td>
                    {/* Not known for a batch sent before the app kept it: left empty. */}
                    <Table.Td style={{ overflowWrap: 'anywhere' }}>{b.service ? serviceNameStart(b.service) : ''}</Table.Td>
                    <Table.Td style={{ overflowWrap: 'anywhere' }}>{b.importId ?? ''}</Table.Td>
                    <Table.Td><ProblemCell batch={b} /></Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollTable>
          {filtered.length > shown && <Button variant="default" mt="sm" onClick={() => setShown(shown + STEP)}>{t.showMore}</Button>}
        </>
      )}
    </>
  );
}
