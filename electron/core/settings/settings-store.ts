/** Typed settings on disk: validated on load and on every change, never silently reset (docs/service-decisions.md §9). */
import { statSync, type Stats } from 'node:fs';
import path from 'node:path';
import Conf from 'conf';
import { settingsSchema, type Settings, type SettingsPatch } from '../../../shared/settings.schema';
import { otherFileKind } from '../../lib/file-kind';
import { NotOwnError, PRIVATE_FILE_MODE, makePrivateDir, makePrivateFile } from '../../lib/private-files';
import { isPlainObject, mergePatch } from './merge-patch';
import { SettingsFileError, SettingsReadError, SettingsValidationError, SettingsWriteError, formatIssues } from './settings-errors';

/**
 * Where the settings live. `conf` and electron-store (which extends conf) fit as they are: reading `store`
 * reads the file, assigning it writes the file atomically (temp + rename).
 */
export type SettingsBacking = { readonly path: string; store: Record<string, unknown> };

export type SettingsStore = {
  /** The settings file. */
  readonly path: string;
  /** The current settings, defaults filled in; throws SettingsFileError when the file is broken. */
  get(): Settings;
  /** Validates the merged result, writes only what the user set, returns the new settings. */
  update(patch: SettingsPatch): Settings;
};

export type SettingsStoreOptions = { cwd: string } | { backing: SettingsBacking };

const FILE_NAME = 'settings';
// conf's own bookkeeping key (migrations); not a user setting.
const CONF_INTERNAL_KEY = '__internal__';

class NotAnObjectError extends Error {}

/** The byte order mark some editors put before UTF-8 (older Windows Notepad): no part of the JSON, so read past. */
const BYTE_ORDER_MARK = '\uFEFF';

function deserialize(text: string): Record<string, unknown> {
  const value: unknown = JSON.parse(text.startsWith(BYTE_ORDER_MARK) ? text.slice(1) : text);
  // conf would turn `5`, `null` or `[...]` into `{}` and a later write would then wipe the file.
  if (!isPlainObject(value)) throw new NotAnObjectError('the file must hold a JSON object');
  return value;
}

function describeReadError(error: unknown): string | undefined {
  if (error instanceof SyntaxError) return `not valid JSON: ${error.message}`;
  if (error instanceof NotAnObjectError) return error.message;
  return undefined;
}

/**
 * A settings file this user may not read: one of another user (with no read access for others, so it could not even
 * be opened to be found another's) is said as such, as one that can be read is; one of this user's, as unreadable.
 */
function unreadable(file: string, error: unknown): Error {
  const owner = statSync(file, { throwIfNoEntry: false })?.uid;
  if (owner !== undefined && process.getuid !== undefined && owner !== process.getuid()) return new NotOwnError(file, 'file');
  return new SettingsReadError(file, error);
}

/** More than any settings file holds: one this big is not a settings file, and is not read whole. */
export const SETTINGS_FILE_MAX_BYTES = 1024 * 1024;

/**
 * Refuses, before it is opened, a settings file that is not a saved file (opening a named pipe would wait for a writer
 * forever, and hold every command with it) or is far too big to be one.
 */
function checkSettingsFile(file: string): void {
  let stats: Stats;
  try {
    stats = statSync(file);
  } catch {
    // Missing: the defaults apply. Other problems are said by opening it.
    return;
  }
  const where = path.resolve(file);
  const kind = otherFileKind(stats);
  if (kind) throw new SettingsFileError(where, [kind === 'a folder' ? 'it is a folder, not a file' : `it is ${kind}, not a saved file`]);
  if (stats.size > SETTINGS_FILE_MAX_BYTES) {
    throw new SettingsFileError(where, [`it has ${stats.size} bytes, far more than settings take (at most ${SETTINGS_FILE_MAX_BYTES}): it is not a settings file`]);
  }
}

/**
 * conf's options for the settings file. electron-store extends conf and takes the same options, so the desktop
 * shell (electron-store) and the engine (conf) open one file in one format.
 */
export function settingsConfOptions(cwd: string) {
  return {
    cwd,
    configName: FILE_NAME,
    projectName: 'payroll-uploader',
    clearInvalidConfig: false,
    accessPropertiesByDotNotation: false,
    serialize: (value: Record<string, unknown>) => `${JSON.stringify(value, null, 2)}\n`,
    deserialize,
    // A proxy's password may be in it: every write (temp file + rename) leaves it owner-only.
    configFileMode: PRIVATE_FILE_MODE,
  };
}

/** Opens a conf-like backing with settingsConfOptions; a broken file is reported as SettingsFileError. */
export function openSettingsBacking<B extends SettingsBacking>(cwd: string, open: (options: ReturnType<typeof settingsConfOptions>) => B): B {
  // The data folder is made owner-only here, where it is first opened, and a settings file written before this
  // version (readable by others) is made so too.
  makePrivateDir(cwd);
  const file = path.resolve(cwd, `${FILE_NAME}.json`);
  checkSettingsFile(file);
  try {
    makePrivateFile(file, { create: false });
    return open(settingsConfOptions(cwd));
  } catch (error) {
    const reason = describeReadError(error);
    if (reason) throw new SettingsFileError(file, [reason]);
    if (SettingsReadError.covers(error)) throw unreadable(file, error);
    throw error;
  }
}

function openConf(cwd: string): SettingsBacking {
  return openSettingsBacking(cwd, (options) => new Conf<Record<string, unknown>>(options));
}

/** Opens the settings; a broken file is reported with SettingsFileError here and on every later read. */
export function createSettingsStore(options: SettingsStoreOptions): SettingsStore {
  const backing = 'backing' in options ? options.backing : openConf(options.cwd);

  const readRaw = (): Record<string, unknown> => {
    let raw: Record<string, unknown>;
    try {
      raw = backing.store;
    } catch (error) {
      const reason = describeReadError(error);
      if (reason) throw new SettingsFileError(backing.path, [reason]);
      if (SettingsReadError.covers(error)) throw unreadable(backing.path, error);
      throw error;
    }
    const { [CONF_INTERNAL_KEY]: _internal, ...settings } = raw;
    return settings;
  };

  const parseFile = (raw: Record<string, unknown>): Settings => {
    const result = settingsSchema.safeParse(raw);
    if (!result.success) throw new SettingsFileError(backing.path, formatIssues(result.error.issues));
    return result.data;
  };

  const store: SettingsStore = {
    path: backing.path,
    get: () => parseFile(readRaw()),
    update(patch) {
      const raw = readRaw();
      parseFile(raw);
      if (!isPlainObject(patch)) throw new SettingsValidationError(['(top level): a settings change must be an object'], backing.path);
      const merged = mergePatch(raw, patch);
      const result = settingsSchema.safeParse(merged);
      if (!result.success) throw new SettingsValidationError(formatIssues(result.error.issues), backing.path);
      try {
        backing.store = merged;
      } catch (error) {
        // Written to a temp file and renamed over it: a failed write leaves the file as it was.
        throw new SettingsWriteError(backing.path, error);
      }
      return result.data;
    },
  };
  store.get();
  return store;
}
