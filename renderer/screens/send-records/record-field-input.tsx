/** One census or receipt field as an input: its label is its accessible name, its error shows right under it. */
import { NativeSelect, TextInput } from '@mantine/core';
import type { ClipboardEvent, CSSProperties } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import type { FieldSpec } from './record-fields';
import { sendRecordsText } from './send-records-text';

const t = sendRecordsText.fields;

/** Read by a screen reader, not drawn: a grid's hints are drawn once, under their column headers. */
const VISUALLY_HIDDEN: CSSProperties = {
  position: 'absolute', width: 1, height: 1, padding: 0, margin: -1, overflow: 'hidden', clip: 'rect(0 0 0 0)', whiteSpace: 'nowrap', border: 0,
};

/** A grid input's hint goes below it, so it takes no room above it and the row's inputs stay in line. */
const GRID_ORDER: ('label' | 'input' | 'error' | 'description')[] = ['label', 'input', 'error', 'description'];

export type RecordFieldInputProps = {
  spec: FieldSpec;
  /** `onPaste`: a date input reads one pasted value itself (`use-batch-form.ts`). */
  registration: UseFormRegisterReturn & { onPaste?: (event: ClipboardEvent<HTMLElement>) => void };
  error?: string | undefined;
  /** How a pasted value was read (a date that could be read two ways): shown under the input, in a grid too. */
  note?: string | undefined;
  /**
   * Inside a grid the column header is the visible label: its id (and the row's) name the input. The column header
   * shows the hint too; the input keeps it as its description, unseen, so a screen reader still reads it.
   */
  labelledBy?: string;
};

export function RecordFieldInput({ spec, registration, error, note, labelledBy }: RecordFieldInputProps) {
  const inGrid = labelledBy !== undefined;
  // A note is about this input's value, so it is drawn under it even in a grid, where the hint is not.
  const hiddenHint = spec.hint !== undefined && inGrid && note === undefined;
  const common = {
    ...registration,
    required: spec.required,
    error: error && `${spec.label} ${error}`,
    ...(inGrid ? { 'aria-labelledby': labelledBy } : { label: spec.label }),
    ...(note ?? spec.hint ? { description: note ?? spec.hint } : {}),
    ...(inGrid && (note ?? spec.hint) ? { inputWrapperOrder: GRID_ORDER } : {}),
    ...(hiddenHint ? { descriptionProps: { style: VISUALLY_HIDDEN } } : {}),
  };
  if (spec.input === 'select') {
    const first = { value: '', label: spec.required ? t.choose : t.notGiven };
    return <NativeSelect {...common} data={[first, ...(spec.options ?? [])]} />;
  }
  if (spec.input === 'date') return <TextInput {...common} type="date" />;
  if (spec.input === 'number') return <TextInput {...common} inputMode={spec.numeric} autoComplete="off" />;
  return <TextInput {...common} autoComplete="off" />;
}
