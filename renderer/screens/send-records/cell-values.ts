/**
 * Values coming from outside the form (a pasted spreadsheet, a JSON file) checked against what the inputs can hold:
 * a date input holds only a real YYYY-MM-DD date and a select only one of its choices; anything else would be
 * blanked by the browser, silently losing what the clerk pasted. Everything else is left for the record schema.
 */
import { isRealDate } from '../../../shared';
import type { FieldSpec } from './record-fields';
import { sendRecordsText } from './send-records-text';

const pasteText = sendRecordsText.check;

const US_DATE = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;

const squash = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');

export type CellCheck = { value: string } | { problem: string };

/** The value an input of `spec` holds for `raw`, or why it cannot hold it. */
export function checkCell(spec: FieldSpec, raw: string): CellCheck {
  const value = raw.trim();
  if (value === '') return { value: '' };
  if (spec.input === 'date') {
    const us = US_DATE.exec(value);
    const iso = us ? `${us[3]}-${us[1]!.padStart(2, '0')}-${us[2]!.padStart(2, '0')}` : value;
    return isRealDate(iso) ? { value: iso } : { problem: pasteText.notADate(value) };
  }
  if (spec.input === 'select' && spec.options) {
    const wanted = squash(value);
    const synonyms: Record<string, string> = { yes: 'true', no: 'false', y: 'true', n: 'false' };
    const found = spec.options.find((o) => squash(o.value) === wanted || squash(o.label) === wanted || o.value === synonyms[wanted]);
    return found ? { value: found.value } : { problem: pasteText.notAChoice(value, spec.options.map((o) => o.label)) };
  }
  return { value };
}

/** The field a header cell names: its field name (`hireDate`) or its label (`Hire date`), in any case or spacing. */
export function fieldOfHeader(specs: readonly FieldSpec[], header: string): FieldSpec | undefined {
  const wanted = squash(header);
  if (wanted === '') return undefined;
  return specs.find((s) => squash(s.name) === wanted || squash(s.label) === wanted);
}
