/**
 * One batch form (new hires, a termination, receipts): rows of text checked with the shared record schema through
 * react-hook-form's zod resolver, sent over the bridge, and every problem (local or the service's 400/422) put on
 * the record and field it names.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { useState, type BaseSyntheticEvent } from 'react';
import { useFieldArray, useForm, type Resolver } from 'react-hook-form';
import { z } from 'zod';
import type { RecordKind } from '../../../shared';
import { recordSchemas } from '../../../shared';
import type { BatchProblem } from '../../../shared/bridge';
import { useSendBatch } from '../../data/send-records-queries';
import type { FormRow } from './record-fields';
import { FIELDS, emptyRow, isEmptyRow, recordOfRow } from './record-fields';
import { bareMessage, fieldMessage, serviceRecordProblem } from './problem-words';

export type BatchFormValues = { rows: FormRow[] };
type BatchFormOutput = { rows: Record<string, unknown>[] };

export type BatchOutcome =
  | { kind: 'sent'; importId: string; records: number }
  /** The batch went out and came back refused or failed; problems without a record go here. */
  | { kind: 'refused'; general: string[] }
  /** The batch did not get through (network, server error, refused credentials): the service's or client's words. */
  | { kind: 'failed'; messages: string[] }
  | { kind: 'error'; error: unknown };

function formSchema(kind: RecordKind, fixed: Record<string, unknown>) {
  const record = z.preprocess((row) => ({ ...recordOfRow(kind, row as FormRow), ...fixed }), recordSchemas[kind]);
  return z.object({ rows: z.array(record) });
}

/** `rowName` names a row as the form shows it ("Person 2"), for messages that point at another row. */
export function useBatchForm(kind: RecordKind, rowName: (n: number) => string, fixed: Record<string, unknown> = {}) {
  const [schema] = useState(() => formSchema(kind, fixed));
  const form = useForm<BatchFormValues, unknown, BatchFormOutput>({
    resolver: zodResolver(schema) as unknown as Resolver<BatchFormValues, unknown, BatchFormOutput>,
    defaultValues: { rows: [emptyRow(kind)] },
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  const rows = useFieldArray({ control: form.control, name: 'rows' });
  const send = useSendBatch();
  const [outcome, setOutcome] = useState<BatchOutcome>();
  /** Problems the service gave for a whole record (not one field), by row index. */
  const [recordProblems, setRecordProblems] = useState<Record<number, string[]>>({});

  const fieldNames = new Set(FIELDS[kind].map((f) => f.name));

  const applyProblems = (problems: BatchProblem[], rowCount: number): string[] => {
    const general: string[] = [];
    const byRecord: Record<number, string[]> = {};
    let focused = false;
    for (const p of problems) {
      if (p.index === undefined || p.index < 0 || p.index >= rowCount) {
        general.push(p.index === undefined ? p.message : `[${p.index}] ${p.message}`);
        continue;
      }
      const problem = p.field ? { field: p.field, message: bareMessage(p.field, p.message) } : serviceRecordProblem(p.message, rowName);
      if (problem.field && fieldNames.has(problem.field)) {
        form.setError(`rows.${p.index}.${problem.field}`, { type: p.source, message: problem.message }, { shouldFocus: !focused });
        focused = true;
      } else {
        (byRecord[p.index] ??= []).push(problem.field ? fieldMessage(kind, problem.field, problem.message) : problem.message);
      }
    }
    setRecordProblems(byRecord);
    return general;
  };

  const check = form.handleSubmit(async (values) => {
    try {
      const result = await send.mutateAsync({ kind, records: values.rows });
      if (result.ok) {
        // A clean form after a send: the same records are not sent twice by a second click.
        form.reset({ rows: [emptyRow(kind)] });
        setOutcome({ kind: 'sent', importId: result.importId, records: result.records });
        return;
      }
      // Problems naming records are a refusal of the records; without any, the batch did not get through at all.
      const refused = !result.batch || result.problems.some((p) => p.index !== undefined);
      setOutcome(refused
        ? { kind: 'refused', general: applyProblems(result.problems, values.rows.length) }
        : { kind: 'failed', messages: result.problems.map((p) => p.message) });
    } catch (error) {
      setOutcome({ kind: 'error', error });
    }
  });

  /**
   * Blank rows are left out rather than refused, as long as one row is left. The last send's outcome goes first:
   * a banner of an earlier success must not stand above the problems of this try.
   */
  const submit = (event?: BaseSyntheticEvent) => {
    setOutcome(undefined);
    setRecordProblems({});
    const current = form.getValues('rows');
    const blank = current.flatMap((row, i) => (isEmptyRow(row) ? [i] : []));
    if (blank.length > 0 && blank.length < current.length) rows.remove(blank);
    return check(event);
  };

  /** Puts rows (pasted or loaded) into the form: blank rows give way, then every row is checked at once. */
  const addRows = (added: FormRow[], how: 'append' | 'replace' = 'append') => {
    const kept = how === 'replace' ? [] : form.getValues('rows').filter((row) => !isEmptyRow(row));
    rows.replace([...kept, ...added]);
    setOutcome(undefined);
    setRecordProblems({});
    void form.trigger();
  };

  const startOver = () => {
    form.reset({ rows: [emptyRow(kind)] });
    setOutcome(undefined);
    setRecordProblems({});
  };

  const removeRow = (index: number) => {
    rows.remove(index);
    setRecordProblems({});
  };

  return { kind, form, rows, submit, sending: send.isPending, outcome, recordProblems, addRows, removeRow, startOver };
}

export type BatchForm = ReturnType<typeof useBatchForm>;
