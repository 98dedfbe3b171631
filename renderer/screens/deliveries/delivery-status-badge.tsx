/** A delivery status in words and colour (the word carries the meaning; the colour only helps). */
import { Badge } from '@mantine/core';
import { deliveriesText } from './deliveries-text';

const COLORS: Record<number, string> = { 1: 'yellow', 2: 'green', 3: 'red' };

export function DeliveryStatusBadge({ status }: { status: number }) {
  return (
    <Badge color={COLORS[status] ?? 'gray'} variant="light" radius="sm" style={{ textTransform: 'none', flexShrink: 0 }}
      styles={{ root: { maxWidth: 'none', overflow: 'visible' }, label: { overflow: 'visible', textOverflow: 'clip' } }}>
      {deliveriesText.status[status] ?? String(status)}
    </Badge>
  );
}
