/**
 * The delivery attempts, newest first, one row each. The table fits the width it has, from the narrowest window that
 * shows the navigation beside it (768 px) up (app.css, `.delivery-table`): each time on two lines (its day, its time),
 * an event id that breaks where it must; in a narrow place the Type and Duration columns left out (a retry's attempt
 * count is not 0, and both are in the row's Details), and in the narrowest the HTTP code said under the status, in
 * the same cell, rather than in a column of its own. So every row's Details button is in sight without scrolling
 * sideways, and nothing is cut short.
 */
import { Button, Table, Text } from '@mantine/core';
import type { DeliveryAttempt } from '../../../shared';
import { deliveriesText } from './deliveries-text';
import { deliveryDayAndTime, durationText, eventText, httpCodeText, statusCodeText } from './delivery-format';
import { DeliveryStatusBadge } from './delivery-status-badge';
import { ScrollTable } from '../../components/scroll-table';

const t = deliveriesText.table;

function TimeCell({ createdAt }: { createdAt: string }) {
  const at = deliveryDayAndTime(createdAt);
  if (!at) return <Table.Td>{createdAt}</Table.Td>;
  // A space between the parts, for what reads the cell as text (a screen reader, a copy).
  return (
    <Table.Td className="delivery-time">
      <time dateTime={at.iso}><span>{at.day}</span> <span>{at.time}</span></time>
    </Table.Td>
  );
}

/**
 * A column's heading, a word a line ("HTTP / code"): the columns below are narrow, and a heading sets no width.
 * `className`: the column is left out where the table is narrow (app.css says where).
 */
function Head({ label, className }: { label: string; className?: string }) {
  return <Table.Th scope="col" className={className}><span className="delivery-head">{label}</span></Table.Th>;
}

export function DeliveryTable({ items, onDetails }: { items: DeliveryAttempt[]; onDetails: (id: number) => void }) {
  return (
    <>
      <div className="delivery-table">
        {/* With less room than the table needs at its narrowest (a window of 768 px with a wide scroll bar, text made
            larger), it scrolls inside its own region. */}
        <ScrollTable label={t.caption} minWidth={0}>
          <Table striped highlightOnHover withTableBorder captionSide="top" verticalSpacing="xs">
            <Table.Caption>{t.caption}</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Head label={t.id} />
                <Head label={t.time} />
                <Head label={t.event} />
                <Head label={t.type} className="delivery-optional" />
                <Head label={t.status} />
                <Head label={t.httpCode} className="delivery-code" />
                <Head label={t.duration} className="delivery-optional" />
                <Head label={t.attemptCount} />
                <Head label={t.actions} />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((d) => (
                <Table.Tr key={d.id}>
                  <Table.Th scope="row">{d.id}</Table.Th>
                  <TimeCell createdAt={d.createdAt} />
                  <Table.Td>
                    <Text size="sm">{eventText(d.eventType)}</Text>
                    <Text size="xs" c="dimmed" ff="monospace" className="delivery-event-id">{d.eventId}</Text>
                  </Table.Td>
                  <Table.Td className="delivery-optional">{deliveriesText.type[d.type] ?? d.type}</Table.Td>
                  <Table.Td>
                    <DeliveryStatusBadge status={d.status} />
                    {/* Shown only where the HTTP code column is left out; none while the answer is awaited (the
                        status says so). */}
                    {d.status !== 1 && <Text size="xs" className="delivery-code-in-status">{statusCodeText(d)}</Text>}
                  </Table.Td>
                  <Table.Td className="delivery-code">{httpCodeText(d)}</Table.Td>
                  <Table.Td className="delivery-optional">{durationText(d)}</Table.Td>
                  <Table.Td>{d.attemptCount}</Table.Td>
                  <Table.Td>
                    <Button size="compact-sm" variant="light" aria-label={t.detailsOf(d.id)} onClick={() => onDetails(d.id)}>{t.details}</Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollTable>
      </div>
      <Text size="sm" c="dimmed">{t.legend}</Text>
    </>
  );
}
