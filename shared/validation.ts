/** Turns zod issues into the human messages of error bodies and per-record results. */
import type { z } from 'zod';
import type { RecordError } from './imports.schema';

function pathText(path: readonly PropertyKey[]): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i === 0 ? '' : '.'}${String(p)}`)).join('');
}

/**
 * `[2].hireDate: must be a real calendar date YYYY-MM-DD`; `where` prefixes every message, `under` every
 * path (the index of a record checked on its own).
 */
export function formatIssues(error: z.ZodError, where = '', under: readonly PropertyKey[] = []): string[] {
  return error.issues.map((issue) => {
    const path = pathText([...under, ...issue.path]);
    const at = [where, path].filter(Boolean).join(' ');
    return at ? `${at}: ${issue.message}` : issue.message;
  });
}

/** Per-record errors of one record, each naming its field. */
export function recordErrors(error: z.ZodError, position: { line: number } | { index: number }): RecordError[] {
  return error.issues.map((issue) => {
    const field = issue.path.length > 0 ? pathText(issue.path) : undefined;
    return { ...position, ...(field ? { field } : {}), message: field ? `${field} ${issue.message}` : issue.message };
  });
}
