/** One census or receipt field as an input: its label is its accessible name, its error shows right under it. */
import { NativeSelect, TextInput } from '@mantine/core';
import type { UseFormRegisterReturn } from 'react-hook-form';
import type { FieldSpec } from './record-fields';
import { sendRecordsText } from './send-records-text';

const t = sendRecordsText.fields;

export type RecordFieldInputProps = {
  spec: FieldSpec;
  registration: UseFormRegisterReturn;
  error?: string | undefined;
  /** Inside a grid the column header is the visible label: its id (and the row's) name the input. */
  labelledBy?: string;
  /** Hints take room; a grid leaves them to the column header. */
  withHint?: boolean;
};

export function RecordFieldInput({ spec, registration, error, labelledBy, withHint = true }: RecordFieldInputProps) {
  const common = {
    ...registration,
    required: spec.required,
    error: error && `${spec.label} ${error}`,
    ...(labelledBy ? { 'aria-labelledby': labelledBy } : { label: spec.label }),
    ...(withHint && spec.hint && !labelledBy ? { description: spec.hint } : {}),
  };
  if (spec.input === 'select') {
    const first = { value: '', label: spec.required ? t.choose : t.notGiven };
    return <NativeSelect {...common} data={[first, ...(spec.options ?? [])]} />;
  }
  if (spec.input === 'date') return <TextInput {...common} type="date" />;
  if (spec.input === 'number') return <TextInput {...common} inputMode={spec.numeric} autoComplete="off" />;
  return <TextInput {...common} autoComplete="off" />;
}
