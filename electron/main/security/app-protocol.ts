/**
 * The renderer is served from `app://payroll/`, a custom scheme, not file:// (Electron's checklist, item 18):
 * a page cannot read other local files, every response carries the CSP header, and the sender check has one exact
 * origin to compare with.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { securityHeaders } from './content-security-policy';

export const APP_SCHEME = 'app';
export const APP_HOST = 'payroll';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
/** The window's address. */
export const APP_INDEX_URL = `${APP_ORIGIN}/index.html`;

/** The privileges registered for the scheme before the app is ready. */
export const APP_SCHEME_PRIVILEGES = { standard: true, secure: true, supportFetchAPI: true } as const;

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.txt': 'text/plain; charset=utf-8',
};

/** True for an address of the app's own pages. */
export function isAppUrl(candidate: string): boolean {
  try {
    const url = new URL(candidate);
    return url.protocol === `${APP_SCHEME}:` && url.host === APP_HOST && url.username === '' && url.password === '';
  } catch {
    return false;
  }
}

/** The file under `rootDir` an app:// address names, or undefined when it would leave the folder. */
export function resolveAppFile(rootDir: string, requestUrl: string): string | undefined {
  if (!isAppUrl(requestUrl)) return undefined;
  let pathname: string;
  try {
    pathname = decodeURIComponent(new URL(requestUrl).pathname);
  } catch {
    return undefined;
  }
  if (pathname.includes('\0')) return undefined;
  const relative = pathname === '/' ? 'index.html' : pathname.replace(/^\/+/, '');
  const root = path.resolve(rootDir);
  const file = path.resolve(root, relative);
  if (file !== root && !file.startsWith(root + path.sep)) return undefined;
  return file;
}

/** Answers one app:// request from the built renderer; only GET and HEAD. */
export async function serveAppRequest(rootDir: string, request: { url: string; method: string }): Promise<Response> {
  const headers = securityHeaders();
  if (request.method !== 'GET' && request.method !== 'HEAD') return new Response(null, { status: 405, headers });
  const file = resolveAppFile(rootDir, request.url);
  if (!file) return new Response('Not found', { status: 404, headers });
  let body: Buffer;
  try {
    body = await readFile(file);
  } catch {
    return new Response('Not found', { status: 404, headers });
  }
  const type = MIME[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
  return new Response(request.method === 'HEAD' ? null : new Uint8Array(body), { status: 200, headers: { ...headers, 'Content-Type': type } });
}
