/** How request and response bodies are kept in the request log: bounded, with secrets masked. */

/** Bodies are kept up to this many characters, then a marker says how big they were. */
export const BODY_LIMIT = 4096;
export const MASK = '***';

const SECRET_KEYS = 'access_token|refresh_token|id_token|client_secret|secret|password';
/** Personal data of records: kept out of the log like secrets (the log is for debugging traffic, not payroll). */
const PERSONAL_KEYS = 'ssn|lastName|firstName';
// Keys are matched whatever their case: a wrongly cased `SSN` is refused (400) but logged, and it is still an ssn.
// Also masks a value the cut left unterminated, so half a secret is never kept either; a personal field is
// masked whatever its JSON type (a wrongly typed ssn is still an ssn).
const JSON_SECRET_RE = new RegExp(
  `"(${SECRET_KEYS}|${PERSONAL_KEYS})"(\\s*:\\s*)(?:"(?:[^"\\\\]|\\\\.)*(?:"|$)|(?<=(?:${PERSONAL_KEYS})"\\s*:\\s*)[^,}\\]\\s]+)`, 'gi');

export const maskJsonSecrets = (text: string) => text.replace(JSON_SECRET_RE, `"$1"$2"${MASK}"`);

const lowerSet = (keys: string) => new Set(keys.toLowerCase().split('|'));
const MASKED_KEYS = lowerSet(`${SECRET_KEYS}|${PERSONAL_KEYS}`);
/** JSON.stringify's replacer for parsed bodies: a masked key's whole value goes, an array or object too. */
const maskValue = (key: string, value: unknown) => (MASKED_KEYS.has(key.toLowerCase()) ? MASK : value);
const maskedJson = (value: unknown) => JSON.stringify(value, maskValue) ?? 'null';

/**
 * Query and form parameters whose values are masked: the secrets, the personal data of records (a careless
 * client may put `?ssn=` in a URL as readily as in a body), and the upload address's HMAC `signature`.
 */
const QUERY_SECRET_KEYS = lowerSet(`${SECRET_KEYS}|${PERSONAL_KEYS}|signature`);
/**
 * A parameter of a request's query (after its first `?`): the server splits it at `&` only, so a value runs to
 * the next `&` whatever it holds (Node takes `"`, `<`, `\` in a request line). A key never spans a `?`, which keeps
 * the scan linear on a hostile `????...`; it can only make more values masked, never fewer.
 */
const PATH_PARAM_RE = /([?&])([^?&=]*)=[^&]*/g;
/**
 * A parameter of a URL inside text (a log line, a JSON string): it also ends where the URL does, at whitespace or
 * the string's closing quote (a JSON escape such as `\"` is part of the value).
 */
const TEXT_PARAM_RE = /([?&])([^?&=\s"\\]*)=(?:\\[^]|[^&\s"\\])*/g;
// The server percent-decodes a key before it reads it, so `%73ignature` is `signature`; only ASCII names matter.
const decodedKey = (key: string) =>
  key.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))).toLowerCase();
const maskParam = (param: string, separator: string, key: string) =>
  QUERY_SECRET_KEYS.has(decodedKey(key)) ? `${separator}${key}=${MASK}` : param;

/**
 * Masks the values of secret and personal query parameters (tokens, client secrets, passwords, upload signatures,
 * ssn and names): in a request's `path` (what it sent as its request target), or in `text` holding URLs (bodies,
 * log lines).
 */
export function maskQuerySecrets(text: string, within: 'path' | 'text'): string {
  // Every stored body passes here, and a record batch holds no `=` at all: no parameter, nothing to scan.
  if (!text.includes('=')) return text;
  if (within === 'text') return text.replace(TEXT_PARAM_RE, maskParam);
  const query = text.indexOf('?');
  return query < 0 ? text : text.slice(0, query) + text.slice(query).replace(PATH_PARAM_RE, maskParam);
}

const marker = (size: number | undefined) =>
  `…[cut after ${BODY_LIMIT} characters${size !== undefined ? `; the body had ${size} bytes` : ''}]`;

/**
 * Masks and cuts a text body; the text is cut with a margin before masking so a huge body is never scanned whole.
 * `size` is the whole body's size in bytes: null when unknown, undefined to measure `text`.
 */
export function boundText(text: string, size?: number | null): string {
  const long = text.length > BODY_LIMIT;
  // Query secrets too: a response may carry URLs (the upload grants' pre-signed addresses, live for 15 minutes).
  const masked = maskQuerySecrets(maskJsonSecrets(long ? text.slice(0, BODY_LIMIT + 256) : text), 'text');
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
  const entries = Object.entries(form).map(([k, v]) => [k, QUERY_SECRET_KEYS.has(k.toLowerCase()) ? MASK : String(v)]);
  return boundText(new URLSearchParams(entries).toString(), size);
}

/** What is kept of a body that is not stored (uploaded files): its size and type. */
export const bodyPlaceholder = (length: string | undefined, type: string | undefined) =>
  `<${length ?? 'unknown number of'} bytes of ${type?.split(';')[0]?.trim() || 'unknown type'}>`;
