/**
 * Facts about one thing, a label and its value a row (a file in the Queue or History drawer, a delivery attempt): a
 * table with row headers, so a screen reader says each value with its label. Long values (paths, reasons) wrap
 * anywhere rather than widen the drawer.
 */
import { Table } from '@mantine/core';
import type { ReactNode } from 'react';

export type Fact = [label: string, value: ReactNode];

export function FactsTable({ facts, labelWidth }: { facts: readonly Fact[]; labelWidth: string }) {
  return (
    <Table variant="vertical" withTableBorder layout="fixed">
      <Table.Tbody>
        {facts.map(([label, value]) => (
          <Table.Tr key={label}>
            <Table.Th w={labelWidth} scope="row">{label}</Table.Th>
            <Table.Td style={{ overflowWrap: 'anywhere' }}>{value}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
