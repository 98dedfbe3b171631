/** The delivery attempts, newest first, one row each. */
import { Button, Table, Text } from '@mantine/core';
import type { DeliveryAttempt } from '../../../shared';
import { deliveriesText } from './deliveries-text';
import { deliveryTime, durationText, eventText, httpCodeText } from './delivery-format';
import { DeliveryStatusBadge } from './delivery-status-badge';
import { ScrollTable } from '../../components/scroll-table';

const t = deliveriesText.table;

export function DeliveryTable({ items, onDetails }: { items: DeliveryAttempt[]; onDetails: (id: number) => void }) {
  return (
    <>
      <ScrollTable label={t.caption} minWidth={860}>
        <Table striped highlightOnHover withTableBorder captionSide="top" verticalSpacing="xs">
          <Table.Caption>{t.caption}</Table.Caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t.id}</Table.Th>
              <Table.Th scope="col">{t.time}</Table.Th>
              <Table.Th scope="col">{t.event}</Table.Th>
              <Table.Th scope="col">{t.type}</Table.Th>
              <Table.Th scope="col">{t.status}</Table.Th>
              <Table.Th scope="col">{t.httpCode}</Table.Th>
              <Table.Th scope="col">{t.duration}</Table.Th>
              <Table.Th scope="col">{t.attemptCount}</Table.Th>
              <Table.Th scope="col">{t.actions}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((d) => (
              <Table.Tr key={d.id}>
                <Table.Th scope="row">{d.id}</Table.Th>
                <Table.Td>{deliveryTime(d.createdAt)}</Table.Td>
                <Table.Td>
                  <Text size="sm">{eventText(d.eventType)}</Text>
                  <Text size="xs" c="dimmed" ff="monospace">{d.eventId}</Text>
                </Table.Td>
                <Table.Td>{deliveriesText.type[d.type] ?? d.type}</Table.Td>
                <Table.Td><DeliveryStatusBadge status={d.status} /></Table.Td>
                <Table.Td>{httpCodeText(d)}</Table.Td>
                <Table.Td>{durationText(d)}</Table.Td>
                <Table.Td>{d.attemptCount}</Table.Td>
                <Table.Td>
                  <Button size="compact-sm" variant="light" aria-label={t.detailsOf(d.id)} onClick={() => onDetails(d.id)}>{t.details}</Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollTable>
      <Text size="sm" c="dimmed">{t.legend}</Text>
    </>
  );
}
