/** New hires: one card per person with all 16 census fields; several people go out as one batch. */
import { Alert, Button, Fieldset, Group, List, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { RecordFieldInputProps } from './record-field-input';
import { RecordFieldInput } from './record-field-input';
import { FIELDS, MAX_FORM_RECORDS } from './record-fields';
import { sendRecordsText } from './send-records-text';
import type { BatchForm } from './use-batch-form';
import { BatchOutcomeView } from './batch-outcome';
import { FormProblems } from './form-problems';
import { SpreadsheetPasteBox, usePastedRows } from './spreadsheet-paste-box';

const t = sendRecordsText;
const required = FIELDS.census.filter((f) => f.required);
const optional = FIELDS.census.filter((f) => !f.required);

function PersonCard({ batch, index, id }: { batch: BatchForm; index: number; id: string }) {
  const errors = batch.fieldProblems(index);
  const notes = batch.fieldNotes(index);
  const field = (spec: RecordFieldInputProps['spec']) => (
    <RecordFieldInput
      key={spec.name}
      spec={spec}
      registration={batch.register(`rows.${index}.${spec.name}`)}
      error={errors[spec.name]}
      note={notes[spec.name]}
    />
  );
  const problems = batch.recordProblems[index] ?? [];
  const many = batch.rows.fields.length > 1;
  return (
    // Each person is a heading under the screen's (h2), so the pay details heading below is one level under it, and
    // a screen reader's list of headings names every person; the legend still names the group.
    <Fieldset legend={<Title order={3} size="h5">{t.census.person(index + 1)}</Title>} id={id}>
      <Stack gap="sm">
        {problems.length > 0 && (
          <Alert color="red" p="xs"><List size="sm">{problems.map((m, i) => <List.Item key={i}>{m}</List.Item>)}</List></Alert>
        )}
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm" verticalSpacing="xs">{required.map(field)}</SimpleGrid>
        <Title order={4} size="h6" mt="xs">{t.census.moreFields}</Title>
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm" verticalSpacing="xs">{optional.map(field)}</SimpleGrid>
        {many && (
          <Group justify="flex-end">
            <Button
              ref={batch.removeButton(index)} variant="subtle" color="red" size="compact-sm"
              aria-label={t.census.removePerson(index + 1)} onClick={() => batch.removeRow(index)}
            >
              {t.census.remove}
            </Button>
          </Group>
        )}
      </Stack>
    </Fieldset>
  );
}

export function CensusPanel({ batch }: { batch: BatchForm }) {
  const paste = usePastedRows(batch);
  const count = batch.rows.fields.length;
  return (
    <form noValidate onSubmit={(e) => void batch.submit(e)} onPaste={paste.onPaste} aria-label={t.tabs.census}>
      <Stack gap="md">
        <Text>{t.census.intro} {t.fields.requiredNote}</Text>
        <BatchOutcomeView outcome={batch.outcome} unconfirmed={batch.unconfirmed} />
        <FormProblems batch={batch} rowName={t.census.person} />
        {batch.rows.fields.map((row, index) => <PersonCard key={row.id} batch={batch} index={index} id={`person-${index + 1}`} />)}
        <Group>
          <Button ref={batch.addButton} variant="default" onClick={batch.addRow}>{t.census.addPerson}</Button>
          {batch.full && <Text size="sm" role="status">{t.formIsFull(MAX_FORM_RECORDS)}</Text>}
        </Group>
        <SpreadsheetPasteBox batch={batch} paste={paste} />
        <Group>
          <Button type="submit" loading={batch.sending}>{t.census.send(count)}</Button>
          <Button variant="subtle" onClick={batch.startOver}>{t.clearAll}</Button>
        </Group>
      </Stack>
    </form>
  );
}
