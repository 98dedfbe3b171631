/** Typed errors of the settings store; each carries readable messages, never a setting's value. */
import type { z } from 'zod';
import { printableText } from '../../lib/printable-name';

/** Turns zod issues into "path: message" lines. */
export function formatIssues(issues: readonly z.core.$ZodIssue[]): string[] {
  return issues.map((issue) => `${issue.path.map(String).join('.') || '(top level)'}: ${issue.message}`);
}

/**
 * The settings file cannot be used as it is; it was left untouched for the user to fix or remove. An issue may quote
 * the file (JSON's "Unexpected token" shows the text around it, a key named in an unknown-key issue): what it quotes
 * is shown with control and invisible characters escaped, so a file full of NUL bytes cannot put them on the terminal,
 * and the character at fault can be seen.
 */
export class SettingsFileError extends Error {
  override readonly name = 'SettingsFileError';
  readonly issues: readonly string[];
  constructor(
    readonly path: string,
    issues: readonly string[],
  ) {
    const shown = issues.map((line) => printableText(line));
    super(
      `The settings file ${printableText(path)} is invalid and was left unchanged; fix or remove it:\n` +
        shown.map((line) => `  - ${line}`).join('\n'),
    );
    this.issues = shown;
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

/** Why a file could not be read, in words; undefined for a cause other than access (its own text says it). */
function readProblem(error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EACCES' || code === 'EPERM') return 'this user is not allowed to read it';
  return undefined;
}

/**
 * The settings file is there but may not be read (its mode was changed, or an administrator's tool made it so): it
 * was left as it is, and nothing runs on settings it could not read.
 */
export class SettingsReadError extends Error {
  override readonly name = 'SettingsReadError';
  constructor(readonly path: string, cause: unknown) {
    super(`The settings file ${path} cannot be read (${readProblem(cause) ?? (cause instanceof Error ? cause.message : String(cause))}), `
      + `so its settings cannot be used and it was left unchanged. Give your user permission to read and change it `
      + `(chmod 600 "${path}"), or choose another data folder (PAYROLL_DATA_DIR)`, { cause });
  }

  /** Whether `error` is one of reading a file this class words (access denied). */
  static covers(error: unknown): boolean {
    return readProblem(error) !== undefined;
  }
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
