/** The error envelope: how every failure crosses the bridge (plain data, never an Error object). */
import { z } from 'zod';

/**
 * invalid_argument: the request broke its schema (fields name the paths); not_found: no such job, batch or delivery;
 * unsupported: not in this mode (a native dialog in the browser, redeliver on a remote service); not_configured: no base
 * URL or no credentials for the profile; service_error: the service answered with an error (message in words);
 * keychain_unavailable: the OS keychain cannot be used; conflict: the action does not fit the current state;
 * internal: anything else (details are in the log, never a stack trace here).
 */
export const BRIDGE_ERROR_CODES = [
  'invalid_argument', 'not_found', 'unsupported', 'not_configured', 'service_error', 'network_error',
  'keychain_unavailable', 'conflict', 'unknown_method', 'unauthorized', 'internal',
] as const;
export type BridgeErrorCode = (typeof BRIDGE_ERROR_CODES)[number];

export const bridgeFieldErrorSchema = z.object({
  /** Dotted path of the field, `records.2.hireDate`; '' for the request as a whole. */
  path: z.string(),
  message: z.string(),
});
export type BridgeFieldError = z.infer<typeof bridgeFieldErrorSchema>;

export const bridgeErrorEnvelopeSchema = z.object({
  name: z.string(),
  message: z.string(),
  code: z.enum(BRIDGE_ERROR_CODES),
  fields: z.array(bridgeFieldErrorSchema).optional(),
  /** For service_error: the HTTP status the service answered. */
  status: z.number().int().optional(),
});
export type BridgeErrorEnvelope = z.infer<typeof bridgeErrorEnvelopeSchema>;

/** What `call()` rejects with on either transport: an Error carrying the envelope's fields. */
export class BridgeError extends Error {
  readonly code: BridgeErrorCode;
  readonly fields: BridgeFieldError[] | undefined;
  readonly status: number | undefined;
  constructor(envelope: BridgeErrorEnvelope) {
    super(envelope.message);
    this.name = envelope.name;
    this.code = envelope.code;
    this.fields = envelope.fields;
    this.status = envelope.status;
  }

  toEnvelope(): BridgeErrorEnvelope {
    return {
      name: this.name, message: this.message, code: this.code,
      ...(this.fields ? { fields: this.fields } : {}), ...(this.status !== undefined ? { status: this.status } : {}),
    };
  }
}

/** Turns zod issues into envelope fields. */
export function fieldsOf(error: z.ZodError, prefix: readonly PropertyKey[] = []): BridgeFieldError[] {
  return error.issues.map((issue) => ({ path: [...prefix, ...issue.path].map(String).join('.'), message: issue.message }));
}

/** An invalid_argument error from a zod failure. */
export function invalidArgument(error: z.ZodError, what: string, prefix: readonly PropertyKey[] = []): BridgeError {
  const fields = fieldsOf(error, prefix);
  const first = fields[0];
  const summary = first ? `${first.path ? `${first.path}: ` : ''}${first.message}` : 'invalid';
  return new BridgeError({
    name: 'BridgeError', code: 'invalid_argument', fields,
    message: `${what}: ${summary}${fields.length > 1 ? ` (and ${fields.length - 1} more)` : ''}`,
  });
}
