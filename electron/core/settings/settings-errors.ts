/** Typed errors of the settings store; each carries readable messages, never a setting's value. */
import type { z } from 'zod';

/** Turns zod issues into "path: message" lines. */
export function formatIssues(issues: readonly z.core.$ZodIssue[]): string[] {
  return issues.map((issue) => `${issue.path.map(String).join('.') || '(top level)'}: ${issue.message}`);
}

/** The settings file cannot be used as it is; it was left untouched for the user to fix or remove. */
export class SettingsFileError extends Error {
  override readonly name = 'SettingsFileError';
  constructor(
    readonly path: string,
    readonly issues: readonly string[],
  ) {
    super(
      `The settings file ${path} is invalid and was left unchanged; fix or remove it:\n` +
        issues.map((line) => `  - ${line}`).join('\n'),
    );
  }
}

/** A settings change was refused; nothing was written. */
export class SettingsValidationError extends Error {
  override readonly name = 'SettingsValidationError';
  /** `path`: the settings file the change was for (absent for a command-line value such as --base-url). */
  constructor(readonly issues: readonly string[], readonly path?: string) {
    super(`Invalid settings${path ? ` for ${path}` : ''} (nothing was saved):\n${issues.map((line) => `  - ${line}`).join('\n')}`);
  }
}

/** Why a file could not be written, in words (the error's code; its own text is kept for the rest). */
function writeProblem(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EROFS') return 'the disk it is on is read-only';
  if (code === 'EACCES' || code === 'EPERM') return 'this user is not allowed to change it or the folder it is in';
  if (code === 'ENOSPC' || code === 'EDQUOT') return 'the disk it is on is full';
  return error instanceof Error ? error.message : String(error);
}

/** The settings file could not be written: it holds what it held before. */
export class SettingsWriteError extends Error {
  override readonly name = 'SettingsWriteError';
  constructor(readonly path: string, cause: unknown) {
    super(`The settings file ${path} could not be written (${writeProblem(cause)}), so nothing was saved`, { cause });
  }
}

/** A profile that is needed has no base URL yet. */
export class MissingBaseUrlError extends Error {
  override readonly name = 'MissingBaseUrlError';
  constructor(readonly profile: string, readonly path?: string) {
    super(`No base URL for the ${profile} profile: set profiles.${profile}.baseUrl in the settings file${path ? ` ${path}` : ''} or pass --base-url`);
  }
}
