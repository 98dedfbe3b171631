/** Starts real local servers for tests: in-process (fast) or as the real CLI process (black-box). */
import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { SCOPES } from '../../shared';
import { createLogger } from '../../electron/lib/logger';
import type { RequestLogEntry } from '../../electron/server/local/local-schemas';
import type { RunningServer, StartOptions } from '../../electron/server/server';
import { startServer } from '../../electron/server/server';

export const TEST_CLIENT = { id: 'test-client', secret: 'test-secret-value-123' };
export const ROOT = resolve(import.meta.dirname, '../..');

export async function tempDir(prefix = 'payroll-test-'): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}

export type TestServer = RunningServer & { dataDir: string; stop(): Promise<void> };

/** A real server on 127.0.0.1, port 0, in a temporary data folder, with TEST_CLIENT holding every scope. */
export async function startTestServer(options: Partial<StartOptions> = {}): Promise<TestServer> {
  const dataDir = options.dataDir ?? (await tempDir());
  const server = await startServer({
    port: 0,
    clients: [{ ...TEST_CLIENT, scopes: [...SCOPES] }],
    logger: createLogger('test-server', () => undefined),
    notice: () => undefined,
    ...options,
    dataDir,
  });
  return {
    ...server,
    dataDir,
    async stop() {
      await server.close();
      if (!options.dataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export async function getToken(baseUrl: string, client: { id: string; secret: string } = TEST_CLIENT): Promise<string> {
  const res = await fetch(`${baseUrl}/oauth/v1/access-token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials',
  });
  if (res.status !== 200) throw new Error(`token request failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

/** JSON request with a bearer token; returns status, headers and parsed body. */
export async function api(
  baseUrl: string, token: string | undefined, method: string, path: string, body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; body: unknown }> {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...headers,
    },
    ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON: keep the text
  }
  return { status: res.status, headers: res.headers, body: parsed };
}

/** Polls until `check` returns a value (not undefined), or fails after `timeoutMs`. */
export async function eventually<T>(check: () => Promise<T | undefined> | T | undefined, timeoutMs = 20_000, everyMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms${last instanceof Error ? `: ${last.message}` : ''}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** The request log's rows for `query` that `match` picks, once there is one (rows are written a moment after the answer). */
export async function loggedRows(
  baseUrl: string, token: string, query: string, match: (row: RequestLogEntry) => boolean,
): Promise<RequestLogEntry[]> {
  return eventually(async () => {
    const res = await api(baseUrl, token, 'GET', `/local/v1/requests?${query}`);
    if (res.status !== 200) throw new Error(`GET /local/v1/requests answered ${res.status}`);
    const rows = (res.body as RequestLogEntry[]).filter(match);
    return rows.length > 0 ? rows : undefined;
  });
}

export type CliServer = { url: string; child: ChildProcessWithoutNullStreams; stderr: () => string; stop(signal?: NodeJS.Signals): Promise<number | null> };

/** Runs `payroll-uploader server` as a real process and waits for its `listening on` line. */
export async function spawnServerCli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliServer> {
  const child = spawn(process.execPath, [join(ROOT, 'bin/payroll-uploader.js'), 'server', ...args], {
    cwd: ROOT, env: { ...process.env, ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const url = await new Promise<string>((resolveUrl, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      const m = /listening on (\S+)/.exec(stdout);
      if (m?.[1]) resolveUrl(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${stderr}`)));
  });
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  return {
    url, child, stderr: () => stderr,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null) child.kill(signal);
      return exited;
    },
  };
}
