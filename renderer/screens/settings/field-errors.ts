/** Puts the core's per-field errors (BridgeError fields) on the form fields they name. */
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { BridgeError } from '../../../shared/bridge';

/**
 * Maps each error's path through `fieldOf` (undefined: not a field of this form) and sets it; answers whether any
 * error landed on a field, so the caller shows the rest as a general error.
 */
export function applyFieldErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fieldOf: (path: string) => Path<T> | undefined,
): boolean {
  if (!(error instanceof BridgeError) || !error.fields) return false;
  let placed = false;
  for (const field of error.fields) {
    const name = fieldOf(field.path);
    if (name) {
      setError(name, { type: 'server', message: field.message });
      placed = true;
    }
  }
  return placed;
}
