/**
 * A message inside a `role="status"` region, looking like a light Mantine Alert. Not an Alert: Mantine gives every
 * Alert `role="alert"`, which would make "Saved." an urgent announcement nested inside the polite status region.
 */
import { Box } from '@mantine/core';
import type { ReactNode } from 'react';

export function StatusNote({ color, children }: { color: 'green' | 'yellow' | 'gray'; children: ReactNode }) {
  return (
    <Box p="md" fz="sm" style={{
      borderRadius: 'var(--mantine-radius-default)',
      backgroundColor: `var(--mantine-color-${color}-light)`,
      color: `var(--mantine-color-${color}-light-color)`,
    }}>{children}</Box>
  );
}
