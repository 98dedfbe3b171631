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

/** The same badge as a plain element styled by app.css, for rows rendered by the thousand while scrolling. */
export function PlainOutcomeBadge({ outcome }: { outcome: Outcome }) {
  const color = COLORS[outcome];
  return (
    <span className="outcome-badge" style={{ background: `var(--mantine-color-${color}-light)`, color: `var(--mantine-color-${color}-light-color)` }}>
      {componentsText.outcome[outcome]}
    </span>
  );
}
