/** The built renderer (dist/renderer), served read-only from its own folder and nothing outside it. */
import { readFile, stat } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml', '.png': 'image/png', '.ico': 'image/x-icon', '.json': 'application/json',
  '.woff2': 'font/woff2', '.map': 'application/json',
};

export type StaticFile = { body: Buffer; type: string; immutable: boolean };

/** The file for a URL path: `/` is index.html; anything outside the folder or missing is undefined. */
export async function staticFile(root: string, urlPath: string): Promise<StaticFile | undefined> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  if (decoded.includes('\0')) return undefined;
  const base = resolve(root);
  const path = resolve(join(base, decoded === '/' ? 'index.html' : decoded));
  if (path !== base && !path.startsWith(base + sep)) return undefined;
  try {
    if (!(await stat(path)).isFile()) return undefined;
    // Vite names built assets by their content hash, so they never change under one name.
    return { body: await readFile(path), type: TYPES[extname(path)] ?? 'application/octet-stream', immutable: path.includes(`${sep}assets${sep}`) };
  } catch {
    return undefined;
  }
}
