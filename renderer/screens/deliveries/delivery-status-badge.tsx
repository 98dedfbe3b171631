/** A delivery status in words and colour (the word carries the meaning; the colour only helps). */
import { Badge } from '@mantine/core';
import { deliveriesText } from './deliveries-text';

const COLORS: Record<number, string> = { 1: 'yellow', 2: 'green', 3: 'red' };

export function DeliveryStatusBadge({ status }: { status: number }) {
  return (
    // Whole words, never cut short, and on two lines when the column is narrow: "Waiting for an answer" on one line
    // was the widest cell of the Deliveries table, which then no longer fit a window of 900 px.
    <Badge color={COLORS[status] ?? 'gray'} variant="light" radius="sm" style={{ textTransform: 'none', flexShrink: 0 }}
      styles={{
        root: { maxWidth: 'none', overflow: 'visible', height: 'auto', minHeight: 'var(--badge-height)' },
        label: { overflow: 'visible', textOverflow: 'clip', whiteSpace: 'normal' },
      }}>
      {deliveriesText.status[status] ?? String(status)}
    </Badge>
  );
}
