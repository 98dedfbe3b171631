/** Row problems of a file or records of a batch: line (or record), field, message. */
import { Table, Text } from '@mantine/core';
import type { RecordError } from '../../shared/imports.schema';
import { componentsText } from './components-text';

const t = componentsText.problems;
const labels: Partial<Record<string, string>> = componentsText.fieldLabels;

const labelOf = (field: string | undefined) => (field !== undefined && Object.hasOwn(labels, field) ? labels[field] : undefined);

/** The core's messages start with the field's key ("hireDate must be …"); beside its label they start with it too. */
function messageOf(field: string | undefined, message: string): string {
  const label = labelOf(field);
  return label && field && message.startsWith(`${field} `) ? `${label}${message.slice(field.length)}` : message;
}

/**
 * A field as the forms label it ("Hire date"), with its name in the records and the CSV template below it (`hireDate`,
 * the column a clerk looks for in the file, the key an integration developer knows). Names that are no field of the
 * template are shown as they came.
 */
function FieldCell({ field }: { field: string | undefined }) {
  if (field === undefined) return <Table.Td />;
  const label = labelOf(field);
  if (!label) return <Table.Td>{field}</Table.Td>;
  return (
    <Table.Td title={field}>
      <span data-part="label">{label}</span>
      <Text span display="block" size="xs" c="dimmed" ff="monospace" data-part="key">{field}</Text>
    </Table.Td>
  );
}

export function ProblemsTable({ problems, total, caption }: { problems: RecordError[]; total?: number; caption: string }) {
  const byRecord = problems.some((p) => p.line === undefined && p.index !== undefined);
  return (
    <>
      <Table.ScrollContainer minWidth={360}>
        <Table striped withTableBorder captionSide="top">
          <Table.Caption>{caption}</Table.Caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{byRecord ? t.record : t.line}</Table.Th>
              <Table.Th scope="col">{t.field}</Table.Th>
              <Table.Th scope="col">{t.message}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {problems.map((p, i) => (
              <Table.Tr key={`${p.line ?? p.index ?? ''}-${p.field ?? ''}-${i}`}>
                <Table.Td>{p.line ?? (p.index !== undefined ? p.index + 1 : t.wholeFile)}</Table.Td>
                <FieldCell field={p.field} />
                <Table.Td>{messageOf(p.field, p.message)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {total !== undefined && total > problems.length && <Text size="sm" mt="xs">{t.shownOf(problems.length, total)}</Text>}
    </>
  );
}
