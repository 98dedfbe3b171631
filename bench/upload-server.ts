/**
 * The local server as a child process for the upload benchmark, so the benchmark process's RSS is the uploader's
 * alone, plus the plain-HTTP calls the baselines make (token, handshake).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

export const CLIENT = { id: 'bench', secret: 'bench-secret-0123456789' };

export type BenchServer = {
  url: string;
  pid: number;
  /** Resolves once the server has used under 5 % of a core for 500 ms (it processes uploaded CSVs after the PUT). */
  quiet(): Promise<void>;
  stop(): Promise<void>;
};

const root = join(import.meta.dirname, '..');

/** CPU seconds used so far by `pid` (Linux /proc), or undefined elsewhere. */
async function cpuSeconds(pid: number): Promise<number | undefined> {
  try {
    const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).replace(/^.*\) /s, '').split(' ');
    // After the command name: state is field 3, utime 14 and stime 15 (1-based), here shifted by 3.
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export async function startServerChild(dataDir: string): Promise<BenchServer> {
  const child: ChildProcess = spawn(
    process.execPath,
    [join(root, 'bin/payroll-uploader.js'), 'server', '--port', '0', '--data-dir', dataDir, '--client', `${CLIENT.id}:${CLIENT.secret}`],
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, PAYROLL_LOG_LEVEL: 'warn' } },
  );
  let tail = '';
  // Drained always, so a chatty server never blocks on a full pipe; the tail explains a failed start.
  child.stderr?.on('data', (chunk: Buffer) => (tail = (tail + chunk.toString()).slice(-4000)));
  const lines = createInterface({ input: child.stdout! });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not start within 30 s:\n${tail}`)), 30_000);
    lines.on('line', (line) => {
      const found = /^listening on (\S+)/.exec(line);
      if (found) {
        clearTimeout(timer);
        resolve(found[1] as string);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited (${code}) before listening:\n${tail}`));
    });
  });
  const pid = child.pid as number;
  return {
    url,
    pid,
    async quiet() {
      let last = await cpuSeconds(pid);
      if (last === undefined) return sleep(3000);
      for (let i = 0; i < 600; i++) {
        await sleep(500);
        const now = await cpuSeconds(pid);
        if (now === undefined || now - last < 0.025) return;
        last = now;
      }
      throw new Error('the server stayed busy for 5 minutes');
    },
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}

export async function fetchToken(url: string): Promise<string> {
  const res = await fetch(`${url}/oauth/v1/access-token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${CLIENT.id}:${CLIENT.secret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials',
  });
  if (res.status !== 200) throw new Error(`token: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

/** One handshake POST for one census file; returns its upload address. */
export async function handshake(url: string, token: string, md5: string, fileName: string): Promise<string> {
  const res = await fetch(`${url}/law/api/v1/payroll-submissions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify([{ fileType: '1', referenceDate: '2026-03-31T00:00:00Z', checksum: md5, fileName }]),
  });
  if (res.status !== 201) throw new Error(`handshake: ${res.status} ${await res.text()}`);
  const [grant] = (await res.json()) as { uploadUrl: string }[];
  if (!grant) throw new Error('handshake: no grant in the answer');
  return grant.uploadUrl;
}
