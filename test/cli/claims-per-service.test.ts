/**
 * Claims in a shared folder belong to a service: an uploader stopped while it holds claimed files gets them taken
 * over only by an uploader that sends to the same service as the same client, never by one pointed elsewhere; and
 * back again, it does not call a file taken over "disappeared". Real `payroll-uploader` processes, two real local
 * servers, one real shared folder.
 */
import { readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startCli, runCli, uploaderEnv } from '../helpers/cli';
import { md5 } from '../helpers/csv-fixtures';
import type { TestServer } from '../helpers/local-server';
import { TEST_CLIENT, api, eventually, getToken, startTestServer, tempDir } from '../helpers/local-server';
import { censusCsv } from '../helpers/queue-kit';
import { CLAIMS_FOLDER, CLAIM_RECORDS, claimOwner } from '../../electron/core/queue/folder-claims';

async function listFiles(dir: string): Promise<string[]> {
  return (await readdir(dir, { recursive: true, withFileTypes: true }))
    .filter((e) => !e.isDirectory()).map((e) => join(e.parentPath, e.name).slice(dir.length + 1)).sort();
}

describe('payroll-uploader watch: claimed files are taken over only for their own service and client', () => {
  let a: TestServer;
  let b: TestServer;
  let dirs: string[] = [];
  const folder = async (prefix: string) => {
    const dir = await tempDir(prefix);
    dirs.push(dir);
    return dir;
  };
  const held = (srv: TestServer, checksum: string) =>
    Object.values(srv.ctx.db.prepare('SELECT count(*) AS n FROM files WHERE checksum = ?').get(checksum) as object)[0] as number;

  beforeAll(async () => {
    [a, b] = await Promise.all([startTestServer(), startTestServer()]);
  });
  afterAll(() => Promise.all([a.stop(), b.stop()]));
  afterEach(async () => {
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
    dirs = [];
  });

  it('a stopped uploader\'s claim waits for its service: another service leaves it, the same service takes it over, and the first calls it taken over, not gone', async () => {
    const shared = await folder('payroll-shared-');
    const timeout = { PAYROLL_CLAIM_TIMEOUT_S: '2' };
    const [envA, envB, envC] = [
      uploaderEnv(await folder('payroll-data-a-'), timeout),
      uploaderEnv(await folder('payroll-data-b-'), { ...timeout, PAYROLL_LOG_LEVEL: 'debug' }),
      uploaderEnv(await folder('payroll-data-c-'), timeout),
    ];
    const content = censusCsv('claimed-for-a');
    const token = await getToken(a.url);
    // A's service refuses handshakes for now: A claims the file and keeps it claimed, waiting to retry.
    await api(a.url, token, 'PUT', '/local/v1/faults', [{ pathPrefix: '/law/api/v1/payroll-submissions', errorRate: 1, errorStatus: 503 }]);
    try {
      const first = startCli(['watch', shared, '--base-url', a.url, '--json'], envA);
      await writeFile(join(shared, 'census-acme.csv'), content);
      await eventually(() => first.events.find((e) => e.event === 'job' && e.data.state === 'waiting'), 60_000);
      first.child.kill('SIGINT');
      expect(await first.exited).toBe(0);
      expect(first.stderr()).toMatch(/1 file\(s\) not finished \(census-acme\.csv\); they resume at the next start/);
      const claimedByA = join(CLAIMS_FOLDER, claimOwner(envA.PAYROLL_DATA_DIR), 'census-acme.csv');
      expect(await listFiles(shared)).toContain(claimedByA);

      // B sends to another service: it leaves A's claim where it is and says, once, for whom it waits.
      const other = startCli(['watch', shared, '--base-url', b.url, '--json'], envB);
      try {
        const left = await eventually(() => other.events.find((e) => e.event === 'notice' && String(e.data.message).includes('census-acme.csv')), 60_000);
        expect(String(left.data.message)).toBe(
          `1 file(s) (census-acme.csv) wait in ${join(shared, CLAIMS_FOLDER, claimOwner(envA.PAYROLL_DATA_DIR))}: the uploader `
          + `"${claimOwner(envA.PAYROLL_DATA_DIR)}", silent for 2 s, claimed them for ${a.url} as client ${TEST_CLIENT.id}, and this `
          + `uploader sends only to ${b.url} as client ${TEST_CLIENT.id}, so it leaves them there. They are sent when that `
          + 'uploader runs again; to send them from here instead, move them back into the watched folder.',
        );
        // Several more looks at the silent uploader's claims (each after the timeout) say nothing more.
        await eventually(() => ((other.stderr().match(/1 file\(s\) still wait in /g) ?? []).length >= 2 ? true : undefined), 60_000);
        expect(other.events.filter((e) => e.event === 'notice' && String(e.data.message).includes('census-acme.csv'))).toHaveLength(1);
      } finally {
        other.child.kill('SIGTERM');
        await other.exited;
      }
      expect(other.stderr()).not.toMatch(/taken over/);
      expect(await listFiles(shared)).toContain(claimedByA);
      expect(held(b, md5(content))).toBe(0);
    } finally {
      await api(a.url, token, 'DELETE', '/local/v1/faults');
    }

    // A killed between writing a claim's record and renaming it into place leaves the record under its temporary name.
    await writeFile(join(shared, CLAIMS_FOLDER, claimOwner(envA.PAYROLL_DATA_DIR), CLAIM_RECORDS, '.0123456789ab.tmp'), '{"baseUrl":');

    // C sends to A's service as A's client: it takes the claim over (and tidies A's folder) and uploads it there.
    const same = startCli(['watch', shared, '--base-url', a.url, '--json'], envC);
    try {
      const result = await eventually(() => same.events.find((e) => e.event === 'result'), 60_000);
      expect(result.data.state).toBe('uploaded');
    } finally {
      same.child.kill('SIGTERM');
      await same.exited;
    }
    expect(same.stderr()).toMatch(/census-acme\.csv: taken over from the uploader/);
    expect(held(a, md5(content))).toBe(1);
    expect(held(b, md5(content))).toBe(0);

    // A killed mid-write once more: its own next start drops the record cut off, as no record of its is being written.
    await writeFile(join(shared, CLAIMS_FOLDER, claimOwner(envA.PAYROLL_DATA_DIR), CLAIM_RECORDS, '.ba9876543210.tmp'), '{"baseUrl":');

    // A, started again, does not call the file disappeared (nor refused): C took it over and sent it.
    const back = await runCli(['watch', shared, '--base-url', a.url, '--once'], envA);
    expect(back.code, back.stderr).toBe(0);
    expect(back.stdout).toMatch(new RegExp(`duplicate\\s+census-acme\\.csv: another uploader \\("${claimOwner(envC.PAYROLL_DATA_DIR)}"\\) took this file over while this one was stopped or silent, and sends it to the same service as the same client`));
    expect(`${back.stdout}${back.stderr}`).not.toMatch(/disappeared|rejected/);
    expect(held(a, md5(content))).toBe(1);
    // Nothing is left behind in the claim folders: the file is filed away once, by C.
    expect((await listFiles(shared)).map((f) => f.replace(/\d{4}-\d{2}-\d{2}/, 'DAY'))).toEqual(['uploaded/DAY/census-acme.csv']);
  }, 240_000);
});
