/** One delivery attempt in full, by its number, with "send again" when the local server is in use. */
import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { BridgeError } from '../../../shared/bridge';
import { ErrorAlert } from '../../components/error-alert';
import { FactsTable, type Fact } from '../../components/facts-table';
import { asSentence } from '../../components/format';
import { useDelivery, useIsLocalMode, useRedeliver } from '../../data/deliveries-queries';
import { deliveriesText } from './deliveries-text';
import { deliveryTime, durationText, eventText, httpCodeText } from './delivery-format';
import { DeliveryStatusBadge } from './delivery-status-badge';

const t = deliveriesText.detail;

export function DeliveryDetail({ id, onClose }: { id: number | undefined; onClose: () => void }) {
  const delivery = useDelivery(id, true);
  const local = useIsLocalMode();
  const redeliver = useRedeliver();
  const d = delivery.data;
  const notFound = delivery.error instanceof BridgeError && delivery.error.code === 'not_found';

  const rows: Fact[] = d ? [
    [t.fields.id, d.id],
    [t.fields.createdAt, deliveryTime(d.createdAt)],
    [t.fields.eventType, eventText(d.eventType)],
    [t.fields.eventId, <Text key="e" span ff="monospace" size="sm">{d.eventId}</Text>],
    [t.fields.type, deliveriesText.type[d.type]],
    [t.fields.status, <DeliveryStatusBadge key="s" status={d.status} />],
    [t.fields.httpStatusCode, httpCodeText(d)],
    [t.fields.durationMs, durationText(d)],
    [t.fields.attemptCount, d.attemptCount],
    // The local server says why a failed try failed; another service may not.
    ...(d.failure ? [[t.fields.failure, asSentence(d.failure)] as Fact] : []),
  ] : [];

  return (
    <Modal opened={id !== undefined} onClose={() => { redeliver.reset(); onClose(); }} title={id !== undefined ? t.title(id) : ''} size="lg" closeButtonProps={{ 'aria-label': t.close }}>
      <Stack gap="md">
        {delivery.isLoading && <Text>{t.loading}</Text>}
        {notFound && id !== undefined && <Alert color="yellow" role="alert">{t.notFound(id)}</Alert>}
        {delivery.error && !notFound && <ErrorAlert error={delivery.error} />}
        {d && (
          <FactsTable facts={rows} labelWidth="40%" />
        )}
        {d && local && (
          <Stack gap="xs">
            <Text size="sm">{t.redeliverHelp}</Text>
            <Group>
              <Button onClick={() => redeliver.mutate({ id: d.id })} loading={redeliver.isPending}>{t.redeliver}</Button>
            </Group>
            {redeliver.data && <Alert color="green" role="status">{t.redelivered(redeliver.data.id)}</Alert>}
            {redeliver.error && <ErrorAlert error={redeliver.error} title={t.redeliverFailed} />}
          </Stack>
        )}
        {d && !local && <Text size="sm" c="dimmed">{t.localOnly}</Text>}
      </Stack>
    </Modal>
  );
}
