/**
 * What stopped a send, as one list above the form (so a long form needs no hunting): the fields marked in red, the
 * service's problems with whole records, and those with the batch as a whole.
 *
 * A screen reader is told the list once, when it is the answer to what the clerk did: a Send stopped by the check or
 * refused by the service, or rows pasted or loaded with problems. Not as it changes while the clerk fixes the fields:
 * a keystroke can take a problem away or bring one (a date half typed is not a real date yet), and each field says its
 * own problem as the clerk reaches it. So the box is a region to find again, not a live one.
 */
import { Alert, List, Text } from '@mantine/core';
import { useEffect, useRef, type ReactNode } from 'react';
import { useFormState } from 'react-hook-form';
import { useAnnouncer } from '../../components/live-announcer';
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

/** The box's words as one text to be read: a sentence each, so a reader pauses between them. */
function spoken(parts: string[]): string {
  return parts.map((part) => (/[.!?…]$/.test(part) ? part : `${part}.`)).join(' ');
}

/**
 * Says `text` (the box as it is) once the clerk's Send is over, if it stopped there; and once the rows a paste or a
 * JSON file put in the form are checked, if they have problems. Nothing else is said: not what changes as the clerk
 * types (react-hook-form checks every change after a Send), nor the box of a screen opened again.
 */
function useProblemsAnnouncement(batch: BatchForm, text: string): ReactNode {
  const { announce, region } = useAnnouncer('assertive');
  // A Send counts once it is over: after the service's answer when the check let it go (submitCount goes up last).
  const { submitCount, isValidating } = useFormState({ control: batch.form.control });
  const seen = useRef({ submitCount, added: batch.added });
  // Rows were added and are being checked: their problems are said once the check is over. Rows without any leave
  // nothing to say; the clerk's own typing ends the wait (what it brings is not news), and so does a Send.
  const addedWaiting = useRef(false);
  useEffect(() => {
    const watching = batch.form.watch((_values, { type }) => {
      if (type === 'change') addedWaiting.current = false;
    });
    return () => watching.unsubscribe();
  }, [batch.form]);
  useEffect(() => {
    const sendOver = submitCount !== seen.current.submitCount;
    if (batch.added !== seen.current.added) addedWaiting.current = batch.added !== undefined;
    seen.current = { submitCount, added: batch.added };
    if (sendOver) {
      addedWaiting.current = false;
      if (text) announce(text);
    } else if (addedWaiting.current && !isValidating && text) {
      addedWaiting.current = false;
      announce(text);
    }
  });
  return region;
}

export function FormProblems({ batch, rowName }: { batch: BatchForm; rowName: (n: number) => string }) {
  const { outcome } = batch;
  const lines = problemLines(batch, rowName);
  const refused = outcome?.kind === 'refused';
  const general = refused ? outcome.general : [];
  const all = [...general, ...lines];
  // Only a send that was tried can have sent nothing: pasted or loaded rows are checked before any, and so is a date
  // marked as not kept when the clerk left the screen.
  const [title, intro] = refused ? [t.serviceProblemsTitle, t.serviceProblemsIntro]
    : batch.tried ? [t.problemsTitle, t.problemsIntro] : [t.checkTitle, t.checkIntro];
  const listed = all.slice(0, SHOWN);
  const more = all.length > SHOWN ? [t.moreProblems(all.length - SHOWN)] : [];
  const announcer = useProblemsAnnouncement(batch, all.length > 0 ? spoken([title, intro, ...listed, ...more]) : '');
  return (
    <>
      {announcer}
      {all.length > 0 && (
        // A region named by its title (Mantine's Alert labels itself with it): a reader's list of landmarks finds it.
        <Alert color="red" title={title} role="region">
          <Text size="sm">{intro}</Text>
          <List size="sm" mt="xs">
            {listed.map((line, i) => <List.Item key={i}>{line}</List.Item>)}
            {more.map((line) => <List.Item key="more">{line}</List.Item>)}
          </List>
        </Alert>
      )}
    </>
  );
}
