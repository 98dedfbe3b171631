/**
 * What stopped a send, as one list above the form (so a long form needs no hunting): the fields marked in red, the
 * service's problems with whole records, and those with the batch as a whole.
 */
import { Alert, List, Text } from '@mantine/core';
import { fieldMessage } from './problem-words';
import { sendRecordsText } from './send-records-text';
import type { BatchForm } from './use-batch-form';

const t = sendRecordsText;
const SHOWN = 8;

function problemLines(batch: BatchForm, rowName: (n: number) => string): string[] {
  const lines: string[] = [];
  for (let index = 0; index < batch.rows.fields.length; index += 1) {
    for (const message of batch.recordProblems[index] ?? []) lines.push(t.recordProblem(rowName(index + 1), message));
    for (const [field, message] of Object.entries(batch.fieldProblems(index))) {
      lines.push(t.recordProblem(rowName(index + 1), fieldMessage(batch.kind, field, message)));
    }
  }
  return lines;
}

export function FormProblems({ batch, rowName }: { batch: BatchForm; rowName: (n: number) => string }) {
  const { outcome } = batch;
  const lines = problemLines(batch, rowName);
  const refused = outcome?.kind === 'refused';
  const general = refused ? outcome.general : [];
  if (lines.length === 0 && general.length === 0) return null;
  const all = [...general, ...lines];
  // Only a send that was tried can have sent nothing: pasted or loaded rows are checked before any, and so is a date
  // marked as not kept when the clerk left the screen.
  const [title, intro] = refused ? [t.serviceProblemsTitle, t.serviceProblemsIntro]
    : batch.tried ? [t.problemsTitle, t.problemsIntro] : [t.checkTitle, t.checkIntro];
  return (
    <Alert color="red" title={title} role="alert">
      <Text size="sm">{intro}</Text>
      <List size="sm" mt="xs">
        {all.slice(0, SHOWN).map((line, i) => <List.Item key={i}>{line}</List.Item>)}
        {all.length > SHOWN && <List.Item>{t.moreProblems(all.length - SHOWN)}</List.Item>}
      </List>
    </Alert>
  );
}
