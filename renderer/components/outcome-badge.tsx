/** An outcome in words and colour (the word carries the meaning; the colour only helps). */
import { Badge } from '@mantine/core';
import { componentsText } from './components-text';

export type Outcome = keyof typeof componentsText.outcome;

const COLORS: Record<Outcome, string> = {
  uploaded: 'green', sent: 'green', rejected: 'red', failed: 'red', duplicate: 'gray', sending: 'blue', unknown: 'yellow',
};

export function OutcomeBadge({ outcome }: { outcome: Outcome }) {
  return <Badge color={COLORS[outcome]} variant="light" radius="sm">{componentsText.outcome[outcome]}</Badge>;
}
