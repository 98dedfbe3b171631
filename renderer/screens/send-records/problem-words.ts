/** Problems of records in a clerk's words: the field's label instead of its name, with the record it belongs to. */
import type { RecordKind } from '../../../shared';
import { labelOf } from './record-fields';
import { sendRecordsText } from './send-records-text';

/**
 * `must be written 123-45-6789` for the field ssn reads `SSN must be written 123-45-6789`. Service messages may
 * carry their own `[2].ssn:` or `ssn ` prefix; it is dropped, since the message is shown on that very field.
 */
export function fieldMessage(kind: RecordKind, field: string, message: string): string {
  return `${labelOf(kind, field)} ${bareMessage(field, message)}`;
}

/** A message about a field without the record index and field name in front (the form shows them its own way). */
export function bareMessage(field: string, message: string): string {
  const escaped = field.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return message
    .replace(/^\[\d+\]\.?/, '')
    .replace(new RegExp(`^${escaped}(:\\s*|\\s+)`), '')
    .trim();
}

/** A service message about a whole record (`[2] repeats employeeRegistration E-1 of [0]`) without its index prefix. */
export function recordMessage(message: string): string {
  return message.replace(/^\[\d+\]:?\s*/, '');
}

const REPEATED_FIELD = /^repeats (\w+) (.+) of \[(\d+)\]$/;
const REPEATED_RECEIPT = /^repeats the receipt \(.*\) of \[(\d+)\]$/;

/**
 * A service problem about a whole record in the clerk's words: the 422 "repeats" rules name the other record by its
 * place in the form ("Person 1") and, for a repeated registration, the field it is about. Other `[n]` become names too.
 */
export function serviceRecordProblem(message: string, rowName: (n: number) => string): { field?: string; message: string } {
  const bare = recordMessage(message);
  const receipt = REPEATED_RECEIPT.exec(bare);
  if (receipt) return { message: sendRecordsText.repeatedReceipt(rowName(Number(receipt[1]) + 1)) };
  const field = REPEATED_FIELD.exec(bare);
  if (field) return { field: field[1]!, message: sendRecordsText.repeatedField(field[2]!, rowName(Number(field[3]) + 1)) };
  return { message: withRecordNames(bare, rowName) };
}

/**
 * One problem of a refused batch as a line of its own, naming its record ("Person 2: Employee registration E-9 is also
 * given for Person 1; each must be different in one batch"): for a record that is not in the form (the service named
 * one beyond the batch) and for History, which words a refused batch as the form did.
 */
export function problemLine(kind: RecordKind, problem: { index?: number; field?: string; message: string }, rowName: (n: number) => string): string {
  if (problem.index === undefined) return withRecordNames(problem.message, rowName);
  const words = problem.field
    ? { field: problem.field, message: withRecordNames(bareMessage(problem.field, problem.message), rowName) }
    : serviceRecordProblem(problem.message, rowName);
  return sendRecordsText.recordProblem(rowName(problem.index + 1), words.field ? fieldMessage(kind, words.field, words.message) : words.message);
}

/** `[0]` in a service message is the first record of the batch: the clerk knows it by its name in the form. */
export function withRecordNames(message: string, rowName: (n: number) => string): string {
  return message.replace(/\[(\d+)\]/g, (_all, n: string) => rowName(Number(n) + 1));
}
