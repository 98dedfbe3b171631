/**
 * One batch form (new hires, a termination, receipts): rows of text checked with the shared record schema through
 * react-hook-form's zod resolver, sent over the bridge, and every problem (local or the service's 400/422) put on
 * the record and field it names. The form's own check lives in react-hook-form's errors; the service's answer is kept
 * beside them (`service-marks.ts`), since react-hook-form replaces its errors with the resolver's at every check.
 *
 * The form lives in the screen's memory (`screen-memory.ts`), not in the component: react-hook-form's form control
 * is made once per panel and handed to `useForm`, so going to another screen and back finds the same values, the
 * same problems and the same state of checking (after a failed send, fields are checked again as they change). The
 * last outcome and whether a send is under way are kept beside it, so an answer that comes while the clerk is on
 * another screen still empties the form or marks the fields.
 *
 * The warning of a send whose outcome is unknown is kept apart from the last outcome, because it holds longer: the
 * service may have the records all the same, and it goes only once a send of this form is received or the clerk
 * starts over (see `unconfirmed`).
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useLayoutEffect, useRef, type BaseSyntheticEvent, type ClipboardEvent } from 'react';
import { createFormControl, get, set, useFieldArray, useForm, useFormState, type FieldErrors, type Resolver } from 'react-hook-form';
import { z } from 'zod';
import type { RecordKind } from '../../../shared';
import { recordSchemas } from '../../../shared';
import { BridgeError, type BatchProblem } from '../../../shared/bridge';
import { errorHint } from '../../components/error-alert';
import { useSendBatch } from '../../data/send-records-queries';
import { checkCell } from './cell-values';
import type { CellNote } from './spreadsheet-paste';
import type { FieldSpec, FormRow } from './record-fields';
import { FIELDS, MAX_FORM_RECORDS, emptyRow, isEmptyRow, recordOfRow } from './record-fields';
import { problemLine } from './problem-words';
import { useRemovalFocus } from './removal-focus';
import { Kept, useKept, useScreenMemory } from './screen-memory';
import { NO_MARKS, editedMarks, movedMarks, serviceMarks, shownMarks, type ServiceMarks } from './service-marks';
import { sendRecordsText } from './send-records-text';
import { typedValueProblem, typedValueSlip } from './typed-values';

export type BatchFormValues = { rows: FormRow[] };
type BatchFormOutput = { rows: Record<string, unknown>[] };

/** The three forms of the screen, each with a draft of its own. */
export type PanelKey = 'census' | 'termination' | 'receipts';

export type BatchOutcome =
  | { kind: 'sent'; importId: string; records: number }
  /** The batch went out and came back refused; problems without a record go here. */
  | { kind: 'refused'; general: string[] }
  /**
   * Nothing was imported, and the service holds nothing of the batch: it could not be reached, did not accept the
   * credentials, or said it could not take the batch now (the core's words, batch-failure.ts).
   */
  | { kind: 'failed'; messages: string[] }
  /** The batch went out and no answer came, or the service failed while taking it: it may hold the records. */
  | { kind: 'unknown'; messages: string[] }
  | { kind: 'error'; error: unknown };

/**
 * A send whose outcome is unknown: the batch went out and no answer came (`unknown`, journaled so), or the app's own
 * call to its core failed (`error`). The service may hold its records all the same, so sending them again could
 * import them twice.
 */
export type UnconfirmedSend = Extract<BatchOutcome, { kind: 'unknown' | 'error' }>;

/** Rows put into the form by a paste or from JSON, for the message that says so. */
export type AddedRows = { from: 'paste' | 'json'; count: number; after: number };

/** What `addRows` answers: where the rows went, or why none of them did. */
export type AddRowsResult = { added: true; after: number } | { added: false; problem: string };

type PanelState = {
  /**
   * The answer to the last send, while it speaks of the form as it is: a success goes when Send is pressed again, rows
   * are added or the clerk starts over; a refusal when Send is pressed again or the clerk starts over (its marks stay
   * on the rows they name through rows added and removed, see `marks`). "No connection is set up yet" goes when Send
   * is pressed again.
   */
  outcome?: BatchOutcome;
  /**
   * The last send whose outcome is unknown, with its advice to check before sending again. That advice holds
   * as long as the form can send those records again: through rows added, pasted, loaded or removed, a Send stopped
   * by the check, a later send refused, or a visit to another screen. It goes when a send of this form is received
   * (the form empties) or the clerk starts over; a later send whose outcome is unknown takes its place.
   */
  unconfirmed?: UnconfirmedSend;
  /** What the service's refusal said about each record, until the clerk edits, removes or sends it again. */
  marks: ServiceMarks;
  /** A send is under way (perhaps started before the clerk left the screen and came back). */
  sending: boolean;
  /**
   * The last rows pasted or loaded into the draft. It belongs to the draft, not to the paste box or the JSON panel:
   * "2 rows added. Check them, then send." goes with the rows, when the draft is sent, started over or sent again.
   */
  added?: AddedRows;
  /**
   * How pasted dates that could be read two ways (05/03/2026) were read, shown under their fields until the clerk
   * changes the field, the row goes, or the draft is sent or started over.
   */
  notes: CellNote[];
};

const FRESH: PanelState = { marks: NO_MARKS, sending: false, notes: [] };

/** The notes once rows moved: `to` gives a row's new index, or null when it went. */
function movedNotes(notes: CellNote[], to: (row: number) => number | null): CellNote[] {
  if (notes.length === 0) return notes;
  return notes.flatMap((n) => {
    const row = to(n.row);
    return row === null ? [] : [{ ...n, row }];
  });
}

/** The error type of a date input that held a day that does not exist when the screen was left. */
const UNKEPT_DATE = 'date-not-kept';
/** The error type of a value pasted into a date input that could not be read as a date (nothing was put in it). */
const PASTE_NOT_READ = 'paste-not-read';
/** Errors the screen sets, not the check: they go as soon as the clerk types into the field. */
const SCREEN_ERRORS = new Set([UNKEPT_DATE, PASTE_NOT_READ]);

/**
 * Whether a failed `batches.send` surely sent nothing. Once the core has sent the records, it answers with the batch
 * and its fate (`result.batch.state`, which is `unknown` when the service may hold them: the core's isOutcomeUnknown),
 * never with an error; so an error the core answered with was raised before anything went out (no connection set up,
 * the built-in server stopped, the keychain locked…). Only `internal` leaves the fate unknown: the core's answer never
 * came (the connection to it broke, its engine failed) or it failed in a way it could not name.
 */
function refusedBeforeSending(error: unknown): error is BridgeError {
  return error instanceof BridgeError && error.code !== 'internal';
}

function formSchema(kind: RecordKind, fixed: Record<string, unknown>) {
  const record = z.preprocess((row) => ({ ...recordOfRow(kind, row as FormRow), ...fixed }), recordSchemas[kind]);
  return z.object({ rows: z.array(record) });
}

/**
 * A date input holding a date that does not exist (30 February, 31 April) or only part of one gives the form an
 * empty value, which the schema would call "required"; the browser knows better (`validity.badInput`), so the field
 * is told the date is not real.
 */
function holdsUnrealDate(ref: unknown): boolean {
  return ref instanceof HTMLInputElement && ref.type === 'date' && ref.validity.badInput;
}

function withRealDates(resolver: Resolver<BatchFormValues, unknown, BatchFormOutput>): Resolver<BatchFormValues, unknown, BatchFormOutput> {
  return async (values, context, options) => {
    const result = await resolver(values, context, options);
    // The fields being checked, nested by their names as the values are (rows.0.hireDate).
    const unreal = (options.names ?? []).filter((name) => holdsUnrealDate(get(options.fields, `${name}.ref`)));
    if (unreal.length === 0) return result;
    const errors: FieldErrors<BatchFormValues> = { ...result.errors };
    for (const name of unreal) set(errors, name, { type: 'date', message: sendRecordsText.check.notARealDate });
    return { values: {}, errors };
  };
}

/**
 * The schema words what the service is sent (a JSON value); what the clerk typed and the form could not read as a
 * value ("12,5" in Amount, the year 0026 in a date) is worded as typed, with what to write (`typed-values.ts`). A
 * value the schema takes but that is surely a slip (the year 0202, typed as 202) is stopped the same way.
 */
function withTypedValueWords(kind: RecordKind, resolver: Resolver<BatchFormValues, unknown, BatchFormOutput>): Resolver<BatchFormValues, unknown, BatchFormOutput> {
  return async (values, context, options) => {
    const result = await resolver(values, context, options);
    const before = (Array.isArray(result.errors.rows) ? result.errors.rows : []) as (Record<string, object> | undefined)[];
    let changed = false;
    const rows = values.rows.map((row, i) => {
      const errors = before[i];
      const words = Object.fromEntries(FIELDS[kind].flatMap((spec) => {
        const error = errors?.[spec.name];
        const typed = error ? typedValueProblem(spec, row[spec.name] ?? '') : typedValueSlip(spec, row[spec.name] ?? '');
        return typed ? [[spec.name, { ...error, type: 'typed', message: typed }]] : [];
      }));
      if (Object.keys(words).length === 0) return errors;
      changed = true;
      return { ...errors, ...words };
    });
    if (!changed) return result;
    return { values: {}, errors: { ...result.errors, rows } as FieldErrors<BatchFormValues> };
  };
}

/**
 * Blank rows among filled ones are left out of a send (`submit` removes them), so the form's check does not call
 * them incomplete either: a row just added after a failed send shows no marks until the clerk types into it. A form
 * of blank rows only is checked as it is, since that is what Send would send.
 */
function withBlankRowsLeftOut(resolver: Resolver<BatchFormValues, unknown, BatchFormOutput>): Resolver<BatchFormValues, unknown, BatchFormOutput> {
  return async (values, context, options) => {
    const filled = values.rows.filter((row) => !isEmptyRow(row));
    const result = await resolver(values, context, options);
    if (filled.length === 0 || filled.length === values.rows.length || !Array.isArray(result.errors.rows)) return result;
    const rowErrors = (result.errors.rows as unknown[]).map((error, i) => (isEmptyRow(values.rows[i]!) ? undefined : error));
    // Nothing left to say: the values are those of the filled rows, as Send would check them.
    if (rowErrors.every((error) => error === undefined)) return resolver({ rows: filled }, context, options);
    return { values: {}, errors: { ...result.errors, rows: rowErrors } as FieldErrors<BatchFormValues> };
  };
}

/** Where each panel's form and state are kept in the screen's memory. */
export const PANEL_KEYS: readonly PanelKey[] = ['census', 'termination', 'receipts'];
export const panelMemoryKey = (panel: PanelKey) => `form:${panel}`;
export type PanelMemory = ReturnType<typeof createPanel>;

/** A panel's form and state, made once and kept while the app runs. */
function createPanel(kind: RecordKind, fixed: Record<string, unknown>) {
  const options = {
    resolver: withRealDates(withBlankRowsLeftOut(withTypedValueWords(kind,
      zodResolver(formSchema(kind, fixed)) as unknown as Resolver<BatchFormValues, unknown, BatchFormOutput>))),
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  } as const;
  const { formControl } = createFormControl<BatchFormValues, unknown, BatchFormOutput>({ ...options, defaultValues: { rows: [emptyRow(kind)] } });
  return { options, formControl, state: new Kept<PanelState>(FRESH) };
}

/** Row `index`'s problems found by the form's own check (react-hook-form's errors), by field. */
function checkProblems(errors: FieldErrors<BatchFormValues>, index: number): Record<string, string> {
  const row = (Array.isArray(errors.rows) ? errors.rows[index] : undefined) as Record<string, { message?: unknown } | undefined> | undefined;
  return Object.fromEntries(Object.entries(row ?? {}).flatMap(([field, error]) => (typeof error?.message === 'string' ? [[field, error.message]] : [])));
}

/** `rowName` names a row as the form shows it ("Person 2"), for messages that point at another row. */
export function useBatchForm(panel: PanelKey, kind: RecordKind, rowName: (n: number) => string, fixed: Record<string, unknown> = {}) {
  const memory = useScreenMemory(panelMemoryKey(panel), () => createPanel(kind, fixed));
  const form = useForm<BatchFormValues, unknown, BatchFormOutput>({ formControl: memory.formControl, ...memory.options });
  // Read from the form control itself: a form shown again starts with the problems it had when the clerk left.
  // `isSubmitted`: the clerk has pressed Send on this draft (a send, or a check that stopped it), so its problems
  // can say "nothing was sent yet … send again"; problems of pasted or loaded rows come before any send.
  const { errors, isSubmitted: tried } = useFormState({ control: form.control });
  const rows = useFieldArray({ control: form.control, name: 'rows' });
  const send = useSendBatch();
  const removal = useRemovalFocus();
  const { outcome, unconfirmed, marks, sending, added, notes } = useKept(memory.state);
  const update = (patch: Partial<PanelState>) => memory.state.set({ ...memory.state.get(), ...patch });

  const shown = shownMarks(kind, marks, rowName);
  /** Row `index`'s problems by field: the form's own check, and the service's marks where the check has none. */
  const fieldProblems = (index: number): Record<string, string> => ({ ...shown.fields[index], ...checkProblems(errors, index) });
  /** The service's marks about whole records, by row index. */
  const recordProblems = shown.records;
  /** Row `index`'s notes by field: how a pasted date was read. */
  const fieldNotes = (index: number): Record<string, string> =>
    Object.fromEntries(notes.filter((n) => n.row === index).map((n) => [n.field, n.note]));

  /**
   * A date input holding a day that does not exist gives the form no value to keep, and the browser offers no way to
   * read what was typed. When the screen closes, such a field is marked (its error says the date was not kept), so
   * the clerk who comes back is told rather than finding it silently empty; the mark goes as soon as they type.
   */
  const dateInputs = useRef(new Map<string, HTMLInputElement>());
  /** The clerk changed a field: the service's marks about it go (`service-marks.ts`). */
  const edited = (name: string) => {
    const [, row, field] = name.split('.');
    const { marks: before, notes: notesBefore } = memory.state.get();
    const after = editedMarks(kind, before, Number(row), field!);
    if (after !== before) update({ marks: after });
    // A note says how a pasted value was read: once the clerk changes the field, it speaks of another value.
    if (notesBefore.some((n) => n.row === Number(row) && n.field === field)) {
      update({ notes: notesBefore.filter((n) => !(n.row === Number(row) && n.field === field)) });
    }
  };
  /**
   * One value pasted into a date input: the browser's date input takes no pasted text (Chromium drops it silently),
   * so it is read as a cell of a spreadsheet paste is (YYYY-MM-DD, or with slashes: a date that could be read either
   * way in the browser's order, with a note under the field that says how) and put in; a value that cannot be read
   * is said on the field instead of lost. A paste of several cells is rows, for the form's paste handler.
   */
  const pasteDate = (name: `rows.${number}.${string}`, spec: FieldSpec, event: ClipboardEvent<HTMLElement>) => {
    const text = event.clipboardData.getData('text/plain');
    if (text.trim() === '' || /[\t\n]/.test(text.trim())) return;
    event.preventDefault();
    event.stopPropagation();
    const checked = checkCell(spec, text);
    if ('problem' in checked) {
      form.setError(name, { type: PASTE_NOT_READ, message: sendRecordsText.check.pasteNotRead(checked.problem) });
      return;
    }
    edited(name);
    if (checked.note) {
      const [, row, field] = name.split('.');
      update({ notes: [...memory.state.get().notes, { row: Number(row), field: field!, note: checked.note }] });
    }
    // Checked at once after a Send (as typing is, `reValidateMode`) or when the field is marked (its mark may no
    // longer hold); otherwise with the rest at Send.
    const shouldValidate = form.formState.isSubmitted || form.getFieldState(name).invalid;
    form.setValue(name, checked.value, { shouldDirty: true, shouldTouch: true, shouldValidate });
  };
  const register = (name: `rows.${number}.${string}`) => {
    const registration = form.register(name);
    const spec = FIELDS[kind].find((f) => f.name === name.split('.')[2]);
    return {
      ...registration,
      ref: (element: Element | null) => {
        registration.ref(element);
        if (element instanceof HTMLInputElement && element.type === 'date') dateInputs.current.set(name, element);
      },
      onChange: (event: { target: unknown; type?: unknown }) => {
        if (SCREEN_ERRORS.has(String(form.getFieldState(name).error?.type))) form.clearErrors(name);
        edited(name);
        return registration.onChange(event);
      },
      ...(spec?.input === 'date' ? { onPaste: (event: ClipboardEvent<HTMLElement>) => pasteDate(name, spec, event) } : {}),
    };
  };
  // A layout effect: it ends while the inputs are still on the page, before React lets go of them.
  useLayoutEffect(() => {
    const inputs = dateInputs.current;
    return () => {
      for (const [name, input] of inputs) {
        if (input.isConnected && input.validity.badInput) form.setError(name as `rows.${number}.${string}`, { type: UNKEPT_DATE, message: sendRecordsText.check.dateNotKept });
      }
    };
  }, [form]);

  /** Marks the records the answer names, focuses the first marked field, and answers the problems of the whole batch. */
  const applyProblems = (problems: BatchProblem[], rowCount: number): string[] => {
    const general: string[] = [];
    const ofRecords: { index: number; field?: string; message: string }[] = [];
    for (const p of problems) {
      if (p.index !== undefined && p.index >= 0 && p.index < rowCount) ofRecords.push({ index: p.index, field: p.field, message: p.message });
      else general.push(problemLine(kind, p, rowName));
    }
    const next = serviceMarks(ofRecords, rowCount);
    update({ marks: next });
    const first = shownMarks(kind, next, rowName).first;
    if (first) form.setFocus(`rows.${first.row}.${first.field}`);
    return general;
  };

  // Only `form` methods (the kept form control) after the answer: the clerk may have left the screen meanwhile.
  const check = form.handleSubmit(async (values) => {
    update({ sending: true });
    try {
      const result = await send.mutateAsync({ kind, records: values.rows });
      if (result.ok) {
        // A clean form after a send: the same records are not sent twice by a second click.
        form.reset({ rows: [emptyRow(kind)] });
        update({ outcome: { kind: 'sent', importId: result.importId, records: result.records }, unconfirmed: undefined, notes: [] });
        return;
      }
      // The service may hold a batch whose outcome is unknown; problems naming records are a refusal of the records;
      // without any, the batch was not sent at all (and nothing of it was imported).
      const messages = result.problems.map((p) => p.message);
      if (result.batch?.state === 'unknown') update({ unconfirmed: { kind: 'unknown', messages } });
      else if (!result.batch || result.problems.some((p) => p.index !== undefined)) {
        update({ outcome: { kind: 'refused', general: applyProblems(result.problems, values.rows.length) } });
      } else update({ outcome: { kind: 'failed', messages } });
    } catch (error) {
      if (!refusedBeforeSending(error)) update({ unconfirmed: { kind: 'error', error } });
      else if (error.code === 'not_configured') update({ outcome: { kind: 'error', error } });
      else update({ outcome: { kind: 'failed', messages: [error.message, errorHint(error)].filter((m) => m !== undefined) } });
    } finally {
      update({ sending: false });
    }
  });

  /**
   * Blank rows are left out rather than refused, as long as one row is left. The last send's outcome goes first:
   * a banner of an earlier success must not stand above the problems of this try. A send whose outcome is unknown
   * stays: if the check stops this one, nothing went out and its warning still holds.
   */
  const submit = async (event?: BaseSyntheticEvent) => {
    event?.preventDefault();
    if (memory.state.get().sending) return;
    update({ outcome: undefined, marks: NO_MARKS, added: undefined });
    const current = form.getValues('rows');
    const blank = current.flatMap((row, i) => (isEmptyRow(row) ? [i] : []));
    if (blank.length > 0 && blank.length < current.length) {
      rows.remove(blank);
      update({ notes: movedNotes(memory.state.get().notes, (row) => row - blank.filter((b) => b < row).length) });
    }
    await check(event);
  };

  /**
   * The row whose first field gets the focus once it is on the page: rows put in by `addRows` are new inputs (the
   * field array is replaced), so the input the clerk was in, or the button of a paste box that closed, is gone.
   */
  const focusRow = useRef<number | undefined>(undefined);
  useEffect(() => {
    if (focusRow.current === undefined) return;
    // The first field of a row in every form's order (the census card and the receipts grid both start with it).
    form.setFocus(`rows.${focusRow.current}.${FIELDS[kind][0]!.name}`);
    focusRow.current = undefined;
  });

  /**
   * Puts rows (pasted or loaded) into the form after the ones already there: blank rows give way, nothing typed is
   * lost, then every row is checked at once and the first added row gets the focus. All of them or none: rows that
   * would take the form past `MAX_FORM_RECORDS` are refused whole, with the reason, rather than cut short.
   */
  const addRows = (more: FormRow[], from: AddedRows['from'], moreNotes: CellNote[] = []): AddRowsResult => {
    const current = form.getValues('rows');
    const keptAt = current.flatMap((row, i) => (isEmptyRow(row) ? [] : [i]));
    const kept = keptAt.map((i) => current[i]!);
    if (kept.length + more.length > MAX_FORM_RECORDS) {
      return { added: false, problem: sendRecordsText.check.formFull(kept.length, more.length, MAX_FORM_RECORDS) };
    }
    rows.replace([...kept, ...more]);
    // A success would read as if the added rows were sent. A refusal still speaks of the rows it marked, which keep
    // their marks where blank rows gave way; "not sent" and "no connection is set up" still hold, and so does the
    // warning of a send whose outcome is unknown (`unconfirmed`).
    const { outcome: last, marks: before, notes: notesBefore } = memory.state.get();
    const moved = (row: number) => (keptAt.includes(row) ? keptAt.indexOf(row) : null);
    const marksNow = movedMarks(before, moved);
    const notesNow = [...movedNotes(notesBefore, moved), ...moreNotes.map((n) => ({ ...n, row: kept.length + n.row }))];
    update({ outcome: last?.kind === 'sent' ? undefined : last, marks: marksNow, added: { from, count: more.length, after: kept.length }, notes: notesNow });
    focusRow.current = kept.length;
    void form.trigger();
    return { added: true, after: kept.length };
  };

  /** One more blank row, unless the form is full (the panel says so then). */
  const full = rows.fields.length >= MAX_FORM_RECORDS;
  const addRow = () => {
    if (!full) rows.append(emptyRow(kind));
  };

  /** The clerk's choice to throw the draft away. */
  const startOver = () => {
    form.reset({ rows: [emptyRow(kind)] });
    update({ outcome: undefined, unconfirmed: undefined, marks: NO_MARKS, added: undefined, notes: [] });
  };

  const dismissAdded = () => update({ added: undefined });

  /** The row goes with its marks; the rows after it move up with theirs. */
  const removeRow = (index: number) => {
    removal.removing(index, rows.fields.length);
    rows.remove(index);
    const moved = (row: number) => (row === index ? null : row > index ? row - 1 : row);
    update({ marks: movedMarks(memory.state.get().marks, moved), notes: movedNotes(memory.state.get().notes, moved) });
  };

  return {
    kind, form, register, fieldProblems, fieldNotes, tried, rows, submit, sending, outcome, unconfirmed, recordProblems,
    added, addRows, dismissAdded, full, addRow, removeRow, removeButton: removal.removeButton, addButton: removal.addButton, startOver,
  };
}

export type BatchForm = ReturnType<typeof useBatchForm>;
