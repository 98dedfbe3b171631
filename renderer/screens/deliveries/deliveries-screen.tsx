/** Deliveries: the service's audit of webhook delivery tries, filtered as the service allows, refreshed while open. */
import { Button, Group, NativeSelect, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { BridgeError } from '../../../shared/bridge';
import { EmptyState } from '../../components/empty-state';
import { ErrorAlert } from '../../components/error-alert';
import { PageHeader } from '../../components/page-header';
import type { DeliveriesFilter } from '../../data/deliveries-queries';
import { useDeliveries } from '../../data/deliveries-queries';
import { deliveriesText } from './deliveries-text';
import { DeliveryDetail } from './delivery-detail';
import { DeliveryTable } from './delivery-table';

const t = deliveriesText;
const LIMITS = [25, 100, 500, 1000];
const timeFormat = new Intl.DateTimeFormat(undefined, { timeStyle: 'medium' });

const statusOptions = [
  { value: '', label: t.filters.anyStatus },
  ...[1, 2, 3].map((s) => ({ value: String(s), label: t.status[s]! })),
];
const retryOptions = [
  { value: '', label: t.filters.anyRetries },
  { value: '0', label: t.filters.firstTriesOnly },
  ...[1, 2, 3, 4, 5].map((n) => ({ value: String(n), label: t.filters.upToRetries(n) })),
];
const limitOptions = LIMITS.map((n) => ({ value: String(n), label: t.filters.latest(n) }));

function FindDelivery({ onFind }: { onFind: (id: number) => void }) {
  const [value, setValue] = useState('');
  const [invalid, setInvalid] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const ok = /^\d{1,15}$/.test(value.trim()) && Number(value) >= 1;
    setInvalid(!ok);
    if (ok) onFind(Number(value));
  };
  return (
    <form onSubmit={submit} noValidate>
      <Group align="flex-start" gap="xs">
        <TextInput label={t.find.label} value={value} inputMode="numeric" w={170}
          onChange={(e) => setValue(e.currentTarget.value)} error={invalid ? t.find.invalid : undefined} />
        <Button type="submit" variant="default" mt={25}>{t.find.button}</Button>
      </Group>
    </form>
  );
}

export function DeliveriesScreen() {
  const [status, setStatus] = useState('');
  const [maxRetries, setMaxRetries] = useState('');
  const [limit, setLimit] = useState('100');
  const [autoRefresh, setAutoRefresh] = useState(true);
  const [detail, setDetail] = useState<number>();

  const filter: DeliveriesFilter = {
    ...(status ? { status: Number(status) as 1 | 2 | 3 } : {}),
    ...(maxRetries ? { maxRetries: Number(maxRetries) } : {}),
    limit: Number(limit),
  };
  const deliveries = useDeliveries(filter, autoRefresh);
  const notConfigured = deliveries.error instanceof BridgeError && deliveries.error.code === 'not_configured';
  const items = deliveries.data?.items ?? [];
  const filtered = status !== '' || maxRetries !== '';

  return (
    <Stack gap="md">
      <PageHeader title={t.title} description={t.intro} />
      <Group align="flex-end" gap="md" role="group" aria-label={t.filters.label}>
        <NativeSelect label={t.filters.status} data={statusOptions} value={status} onChange={(e) => setStatus(e.currentTarget.value)} />
        <NativeSelect label={t.filters.maxRetries} data={retryOptions} value={maxRetries} onChange={(e) => setMaxRetries(e.currentTarget.value)} />
        <NativeSelect label={t.filters.limit} data={limitOptions} value={limit} onChange={(e) => setLimit(e.currentTarget.value)} />
        <FindDelivery onFind={setDetail} />
      </Group>
      <Group gap="md">
        <Switch label={t.autoRefresh} checked={autoRefresh} onChange={(e) => setAutoRefresh(e.currentTarget.checked)} />
        <Button variant="default" size="xs" onClick={() => void deliveries.refetch()} loading={deliveries.isFetching && !autoRefresh}>{t.refreshNow}</Button>
        <Text size="sm" c="dimmed" aria-live="off">
          {deliveries.dataUpdatedAt > 0 ? t.updatedAt(timeFormat.format(deliveries.dataUpdatedAt)) : ''}
        </Text>
      </Group>

      {notConfigured && <EmptyState title={t.notConfigured.title}>{t.notConfigured.body}</EmptyState>}
      {deliveries.error && !notConfigured && <ErrorAlert error={deliveries.error} title={t.loadFailed} />}
      {deliveries.isSuccess && items.length === 0 && (
        <EmptyState title={t.empty.title}>{filtered ? t.empty.filtered : t.empty.body}</EmptyState>
      )}
      {items.length > 0 && <DeliveryTable items={items} onDetails={setDetail} />}
      <DeliveryDetail id={detail} onClose={() => setDetail(undefined)} />
    </Stack>
  );
}
