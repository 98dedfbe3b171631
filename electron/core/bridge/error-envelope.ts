/** Any failure of a handler as the plain envelope that crosses the bridge, and the HTTP status browser mode answers. */
import { z } from 'zod';
import { BridgeError, invalidArgument, type BridgeErrorCode, type BridgeErrorEnvelope, type BridgeFieldError } from '../../../shared/bridge';
import { ApiError, InsecureUrlError, NetworkError } from '../api';
import { KeychainError, MissingCredentialsError } from '../credentials';
import { BatchValidationError } from '../queue';
import { MissingBaseUrlError, SettingsFileError, SettingsValidationError, SettingsWriteError } from '../settings';
import { LockedError } from '../../lib/process-lock';
import { ConflictError, NotConfiguredError, NotFoundError, UnsupportedError } from '../session';

export const HTTP_STATUS: Record<BridgeErrorCode, number> = {
  invalid_argument: 400, unauthorized: 401, not_found: 404, unknown_method: 404, conflict: 409, not_configured: 409,
  internal: 500, unsupported: 501, service_error: 502, network_error: 502, keychain_unavailable: 503,
};

/** "profiles.sandbox.baseUrl: must be ..." lines of the settings errors as fields. */
function fieldsOfLines(lines: readonly string[]): BridgeFieldError[] {
  return lines.map((line) => {
    const at = line.indexOf(': ');
    return at < 0 ? { path: '', message: line } : { path: line.slice(0, at).replace(/^\(top level\)$/, ''), message: line.slice(at + 2) };
  });
}

const envelope = (error: Error, code: BridgeErrorCode, extra: Partial<BridgeErrorEnvelope> = {}): BridgeErrorEnvelope =>
  ({ name: error.name, message: error.message, code, ...extra });

export function toEnvelope(error: unknown): BridgeErrorEnvelope {
  if (error instanceof BridgeError) return error.toEnvelope();
  if (error instanceof z.ZodError) return invalidArgument(error, 'invalid argument').toEnvelope();
  if (!(error instanceof Error)) return { name: 'Error', message: String(error), code: 'internal' };
  if (error instanceof SettingsValidationError) {
    return envelope(error, 'invalid_argument', { message: 'Invalid settings (nothing was saved)', fields: fieldsOfLines(error.issues) });
  }
  if (error instanceof BatchValidationError) return envelope(error, 'invalid_argument');
  // The settings file as it is on disk (unreadable, or not writable now): the clerk can mend it; no fault of the app.
  if (error instanceof SettingsFileError || error instanceof SettingsWriteError) return envelope(error, 'conflict');
  if (error instanceof NotConfiguredError || error instanceof MissingBaseUrlError || error instanceof MissingCredentialsError) {
    return envelope(error, 'not_configured');
  }
  if (error instanceof InsecureUrlError) return envelope(error, 'not_configured');
  if (error instanceof KeychainError) return envelope(error, 'keychain_unavailable');
  if (error instanceof ApiError) return envelope(error, 'service_error', { status: error.status });
  if (error instanceof NetworkError) return envelope(error, 'network_error');
  if (error instanceof NotFoundError) return envelope(error, 'not_found');
  // Another uploader (a `watch` left running) holds the data folder: the clerk can stop it; no fault of the app.
  if (error instanceof ConflictError || error instanceof LockedError) return envelope(error, 'conflict');
  if (error instanceof UnsupportedError) return envelope(error, 'unsupported');
  return envelope(error, 'internal');
}
