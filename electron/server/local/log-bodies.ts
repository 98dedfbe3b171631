/** How request and response bodies are kept in the request log: bounded, with secrets masked. */

/** Bodies are kept up to this many characters, then a marker says how big they were. */
export const BODY_LIMIT = 4096;
export const MASK = '***';

const SECRET_KEYS = 'access_token|refresh_token|id_token|client_secret|secret|password';
/** Personal data of records: kept out of the log like secrets (the log is for debugging traffic, not payroll). */
const PERSONAL_KEYS = 'ssn|lastName|firstName';
// Also masks a value the cut left unterminated, so half a secret is never kept either; a personal field is
// masked whatever its JSON type (a wrongly typed ssn is still an ssn).
const JSON_SECRET_RE = new RegExp(
  `"(${SECRET_KEYS}|${PERSONAL_KEYS})"(\\s*:\\s*)(?:"(?:[^"\\\\]|\\\\.)*(?:"|$)|(?<=(?:${PERSONAL_KEYS})"\\s*:\\s*)[^,}\\]\\s]+)`, 'g');
const FORM_SECRET_RE = new RegExp(`(^|&)(${SECRET_KEYS})=[^&]*`, 'g');

export const maskJsonSecrets = (text: string) => text.replace(JSON_SECRET_RE, `"$1"$2"${MASK}"`);

const MASKED_KEYS = new Set(`${SECRET_KEYS}|${PERSONAL_KEYS}`.split('|'));
/** JSON.stringify's replacer for parsed bodies: a masked key's whole value goes, an array or object too. */
const maskValue = (key: string, value: unknown) => (MASKED_KEYS.has(key) ? MASK : value);
const maskedJson = (value: unknown) => JSON.stringify(value, maskValue) ?? 'null';

/** The query value of `signature` (the upload address's HMAC) masked. */
export const maskSignature = (url: string) =>
  url.includes('ignature=') ? url.replace(/([?&]signature=)[^&]*/gi, `$1${MASK}`) : url;

const marker = (size: number | undefined) =>
  `…[cut after ${BODY_LIMIT} characters${size !== undefined ? `; the body had ${size} bytes` : ''}]`;

/**
 * Masks and cuts a text body; the text is cut with a margin before masking so a huge body is never scanned whole.
 * `size` is the whole body's size in bytes: null when unknown, undefined to measure `text`.
 */
export function boundText(text: string, size?: number | null): string {
  const long = text.length > BODY_LIMIT;
  const masked = maskJsonSecrets(long ? text.slice(0, BODY_LIMIT + 256) : text);
  if (!long && masked.length <= BODY_LIMIT) return masked;
  return masked.slice(0, BODY_LIMIT) + marker(size === undefined ? Buffer.byteLength(text) : size ?? undefined);
}

/** JSON of a parsed body, masked key by key; arrays are serialised item by item only until the limit is passed (batches may be 5 MB). */
export function boundJson(value: unknown, size?: number | null): string {
  if (!Array.isArray(value)) return boundText(maskedJson(value), size);
  let text = '[';
  for (let i = 0; i < value.length; i++) {
    text += (i > 0 ? ',' : '') + maskedJson(value[i]);
    if (text.length > BODY_LIMIT + 256) return boundText(text, size ?? null);
  }
  return boundText(`${text}]`, size);
}

/** A parsed form body (the token endpoint's) written back as a form, secrets masked. */
export function boundForm(form: Record<string, unknown>, size?: number | null): string {
  const text = new URLSearchParams(Object.entries(form).map(([k, v]) => [k, String(v)])).toString();
  return boundText(text.replace(FORM_SECRET_RE, `$1$2=${MASK}`), size);
}

/** What is kept of a body that is not stored (uploaded files): its size and type. */
export const bodyPlaceholder = (length: string | undefined, type: string | undefined) =>
  `<${length ?? 'unknown number of'} bytes of ${type?.split(';')[0]?.trim() || 'unknown type'}>`;
