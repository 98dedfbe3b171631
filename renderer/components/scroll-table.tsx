/**
 * A table that scrolls inside its own region when the window is narrow (or zoomed): the region can be reached with Tab
 * and scrolled with the arrow keys, and is named after the table, as WCAG's keyboard rule (axe's
 * scrollable-region-focusable) asks. A table without any button in it could otherwise not be scrolled by keyboard.
 */
import { Table } from '@mantine/core';
import type { ReactNode } from 'react';

export function ScrollTable(props: { label: string; minWidth: number; maxHeight?: number; children: ReactNode }) {
  const { label, minWidth, maxHeight, children } = props;
  return (
    <Table.ScrollContainer minWidth={minWidth} {...(maxHeight !== undefined ? { maxHeight } : {})}
      scrollAreaProps={{ viewportProps: { tabIndex: 0, role: 'region', 'aria-label': label } }}>
      {children}
    </Table.ScrollContainer>
  );
}
