/** A termination: a census record for an employee the service already knows, with status Terminated. */
import { Button, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { BatchOutcomeView } from './batch-outcome';
import { FormProblems } from './form-problems';
import { RecordFieldInput } from './record-field-input';
import { FIELDS } from './record-fields';
import { sendRecordsText } from './send-records-text';
import type { BatchForm } from './use-batch-form';

const t = sendRecordsText;
const SHOWN = ['employeeRegistration', 'lastName', 'firstName', 'hireDate'];
const fields = SHOWN.map((name) => FIELDS.census.find((f) => f.name === name)!);

export function TerminationPanel({ batch }: { batch: BatchForm }) {
  const errors = batch.fieldProblems(0);
  const notes = batch.fieldNotes(0);
  return (
    <form noValidate onSubmit={(e) => void batch.submit(e)} aria-label={t.tabs.termination}>
      <Stack gap="md" maw={720}>
        <Text>{t.termination.intro} {t.fields.requiredNote}</Text>
        <BatchOutcomeView outcome={batch.outcome} unconfirmed={batch.unconfirmed} />
        <FormProblems batch={batch} rowName={() => t.termination.who} />
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" verticalSpacing="xs">
          {fields.map((spec) => (
            <RecordFieldInput key={spec.name} spec={spec} registration={batch.register(`rows.0.${spec.name}`)}
              error={errors[spec.name]} note={notes[spec.name]} />
          ))}
        </SimpleGrid>
        <Text size="sm">{t.termination.statusNote}</Text>
        <Group>
          <Button type="submit" loading={batch.sending}>{t.termination.send}</Button>
          <Button variant="subtle" onClick={batch.startOver}>{t.clearAll}</Button>
        </Group>
      </Stack>
    </form>
  );
}
