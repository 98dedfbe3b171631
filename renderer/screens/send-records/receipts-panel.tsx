/** Receipts: a grid with one payment per row; column headers are the inputs' labels. */
import { Button, Group, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { useId } from 'react';
import { BatchOutcomeView } from './batch-outcome';
import { FormProblems } from './form-problems';
import { RecordFieldInput } from './record-field-input';
import { FIELDS, MAX_FORM_RECORDS } from './record-fields';
import { sendRecordsText } from './send-records-text';
import { SpreadsheetPasteBox, usePastedRows } from './spreadsheet-paste-box';
import type { BatchForm } from './use-batch-form';

const t = sendRecordsText;
const columns = FIELDS.receipt;
const MIN_WIDTH: Record<string, number> = { ssn: 130, paymentDate: 150, amount: 110, employeeRegistration: 150 };

export function ReceiptsPanel({ batch }: { batch: BatchForm }) {
  const gridId = useId();
  const paste = usePastedRows(batch);
  const count = batch.rows.fields.length;
  const colId = (name: string) => `${gridId}-col-${name}`;
  return (
    <form noValidate onSubmit={(e) => void batch.submit(e)} onPaste={paste.onPaste} aria-label={t.tabs.receipts}>
      <Stack gap="md">
        <Text>{t.receipts.intro} {t.receipts.allRequired}</Text>
        <BatchOutcomeView outcome={batch.outcome} unconfirmed={batch.unconfirmed} />
        <FormProblems batch={batch} rowName={t.receipts.row} />
        <Table.ScrollContainer minWidth={900}>
          <Table verticalSpacing={4} horizontalSpacing={6} withTableBorder>
            <Table.Thead>
              {/* Labels in line at the top, the hints of some columns under theirs. */}
              <Table.Tr style={{ verticalAlign: 'top' }}>
                <Table.Th scope="col" w={44}>{t.receipts.rowHeader}</Table.Th>
                {columns.map((c) => (
                  // The label alone names the inputs (the hint is their description); the hint is drawn under it, once.
                  <Table.Th key={c.name} scope="col" miw={MIN_WIDTH[c.name] ?? 120}>
                    <span id={colId(c.name)}>{c.label}</span>
                    {c.hint && <Text size="xs" c="dimmed" fw={400}>{c.hint}</Text>}
                  </Table.Th>
                ))}
                <Table.Th scope="col"><VisuallyHidden>{t.receipts.actions}</VisuallyHidden></Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {batch.rows.fields.map((row, index) => {
                const rowId = `${gridId}-row-${index}`;
                const errors = batch.fieldProblems(index);
                const notes = batch.fieldNotes(index);
                const problems = batch.recordProblems[index] ?? [];
                return [
                  <Table.Tr key={row.id}>
                    <Table.Th scope="row" id={rowId} style={{ verticalAlign: 'top', paddingTop: 10 }}>
                      <VisuallyHidden>{t.receipts.rowWord} </VisuallyHidden>{index + 1}
                    </Table.Th>
                    {columns.map((c) => (
                      <Table.Td key={c.name} style={{ verticalAlign: 'top' }}>
                        <RecordFieldInput
                          spec={c}
                          registration={batch.register(`rows.${index}.${c.name}`)}
                          error={errors[c.name]}
                          note={notes[c.name]}
                          labelledBy={`${colId(c.name)} ${rowId}`}
                        />
                      </Table.Td>
                    ))}
                    <Table.Td style={{ verticalAlign: 'top' }}>
                      {count > 1 && (
                        <Button
                          ref={batch.removeButton(index)} variant="subtle" color="red" size="compact-sm" mt={4}
                          aria-label={t.receipts.removeRow(index + 1)} onClick={() => batch.removeRow(index)}
                        >
                          {t.receipts.remove}
                        </Button>
                      )}
                    </Table.Td>
                  </Table.Tr>,
                  problems.length > 0 && (
                    <Table.Tr key={`${row.id}-problems`}>
                      <Table.Td />
                      <Table.Td colSpan={columns.length + 1}>
                        {problems.map((m, i) => <Text key={i} size="sm" c="red">{m}</Text>)}
                      </Table.Td>
                    </Table.Tr>
                  ),
                ];
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        <Group>
          <Button ref={batch.addButton} variant="default" onClick={batch.addRow}>{t.receipts.addRow}</Button>
          {batch.full && <Text size="sm" role="status">{t.formIsFull(MAX_FORM_RECORDS)}</Text>}
        </Group>
        <SpreadsheetPasteBox batch={batch} paste={paste} />
        <Group>
          <Button type="submit" loading={batch.sending}>{t.receipts.send(count)}</Button>
          <Button variant="subtle" onClick={batch.startOver}>{t.clearAll}</Button>
        </Group>
      </Stack>
    </form>
  );
}
