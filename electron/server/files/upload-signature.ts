/**
 * Pre-signed upload addresses: `{base}/uploads/<file id>?expires=<unix s>&signature=<hex>`.
 * The signature is HMAC-SHA256 (server key) over the canonical string
 * `PUT\n/uploads/<file id>\n<expires>\ntext/csv`: method, path, expiry and content type, one per line.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const UPLOAD_CONTENT_TYPE = 'text/csv';
const EXPIRES_RE = /^\d{1,12}$/;
const SIGNATURE_RE = /^[0-9a-f]{64}$/i;

export const uploadPath = (fileId: string) => `/uploads/${fileId}`;

function sign(key: Buffer, fileId: string, expires: string): Buffer {
  return createHmac('sha256', key).update(`PUT\n${uploadPath(fileId)}\n${expires}\n${UPLOAD_CONTENT_TYPE}`).digest();
}

/** The upload address of a file, valid until `expires` (Unix seconds). */
export function signedUploadUrl(key: Buffer, baseUrl: string, fileId: string, expires: number): string {
  const signature = sign(key, fileId, String(expires)).toString('hex');
  return `${baseUrl}${uploadPath(fileId)}?expires=${expires}&signature=${signature}`;
}

/**
 * A refused address: `repeated` names the parameters given more than once (the query parser makes those an array),
 * `missing` those absent or empty; neither when both are there once, but the signature does not match.
 */
export type SignatureCheck = { ok: true; expires: number } | { ok: false; repeated: string[]; missing: string[] };

/**
 * Checks the query of an upload request. The HMAC is computed and compared in constant time even
 * when a part is missing or malformed, so the answer time tells nothing about the key.
 */
export function checkUploadSignature(key: Buffer, fileId: string, expires: unknown, signature: unknown): SignatureCheck {
  const expiresText = typeof expires === 'string' ? expires : '';
  const signatureText = typeof signature === 'string' ? signature : '';
  const expected = sign(key, fileId, expiresText);
  const wellFormed = EXPIRES_RE.test(expiresText) && SIGNATURE_RE.test(signatureText);
  const given = wellFormed ? Buffer.from(signatureText, 'hex') : Buffer.alloc(expected.length);
  const equal = timingSafeEqual(expected, given);
  if (equal && wellFormed) return { ok: true, expires: Number(expiresText) };
  const parts = [['expires', expires], ['signature', signature]] as const;
  return {
    ok: false,
    repeated: parts.filter(([, value]) => Array.isArray(value)).map(([name]) => name),
    missing: parts.filter(([, value]) => value === undefined || value === '').map(([name]) => name),
  };
}
