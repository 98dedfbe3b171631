/**
 * Several clerks, each with an account of their own in one group, share an export folder (setgid, group-writable, as
 * an administrator sets one up), under the umask most accounts have (022). Real `payroll-uploader` processes run as
 * two real accounts of the kernel (setpriv: their own user ids, the shared group as a supplementary one, no passwd
 * entries needed), a real local server, real folders. The folders one uploader makes there (`.processing`, its claim
 * folder, `uploaded/` and the dated folder) take the folder's group access, so the other can claim, take over the
 * claims of one that died, and file into them; a folder made by an older version (owner-only) is named as the one
 * that refused, with its owner and what to do.
 */
import { chmod, chown, mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startCli, uploaderEnv } from '../helpers/cli';
import type { TestServer } from '../helpers/local-server';
import { api, eventually, getToken, startTestServer, tempDir } from '../helpers/local-server';
import { censusCsv } from '../helpers/queue-kit';
import { CLAIMS_FOLDER, CLAIM_RECORDS, claimOwner } from '../../electron/core/queue/folder-claims';

/** The clerks' group and accounts: ids no account of this computer has. */
const GROUP = 61_000;
const CLERK_A = 61_001;
const CLERK_B = 61_002;

/** Runs a command as `uid`, in its own group and the shared one, under umask 022 (exec: a kill reaches the uploader). */
const as = (uid: number) => ['setpriv', `--reuid=${uid}`, `--regid=${uid}`, `--groups=${GROUP}`, '--', 'sh', '-c', 'umask 022; exec "$0" "$@"'];

/** Mode bits as `ls -l` shows them in octal, with setgid ('2770'), so a failure reads plainly. */
const modeOf = async (path: string) => ((await stat(path)).mode & 0o7777).toString(8);
const ownersOf = async (path: string) => {
  const info = await stat(path);
  return { uid: info.uid, gid: info.gid };
};

async function listFiles(dir: string): Promise<string[]> {
  return (await readdir(dir, { recursive: true, withFileTypes: true }))
    .filter((e) => !e.isDirectory()).map((e) => join(e.parentPath, e.name).slice(dir.length + 1)).sort();
}

describe('two accounts of one group share an export folder (umask 022)', () => {
  let server: TestServer;
  let dirs: string[] = [];
  beforeAll(async () => {
    expect(process.getuid?.(), 'these tests start the uploader as other accounts, which takes root').toBe(0);
    server = await startTestServer();
  });
  afterAll(() => server.stop());
  afterEach(async () => {
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
    dirs = [];
  });

  /** The shared folder: root's, group-writable and setgid, in the clerks' group (root:payroll 2775). */
  const sharedFolder = async () => {
    const dir = await tempDir('payroll-share-');
    dirs.push(dir);
    await chown(dir, 0, GROUP);
    await chmod(dir, 0o2775);
    return dir;
  };
  /** A clerk's own data folder. */
  const dataOf = async (uid: number) => {
    const dir = await tempDir('payroll-clerk-data-');
    dirs.push(dir);
    await chown(dir, uid, uid);
    return uploaderEnv(dir, { PAYROLL_CLAIM_TIMEOUT_S: '2' });
  };
  /** An export, written by the account that runs the export tool (here the clerk's, 0644 under umask 022). */
  const exportAs = async (uid: number, path: string, content: string) => {
    await writeFile(path, content, { mode: 0o644 });
    await chown(path, uid, GROUP);
  };

  it('the second account claims in the first one\'s .processing, takes over the claims of its dead uploader, and both file into the same folders', async () => {
    const shared = await sharedFolder();
    const [envA, envB] = [await dataOf(CLERK_A), await dataOf(CLERK_B)];
    const token = await getToken(server.url);
    // The service refuses handshakes for now: A claims the file and keeps it, waiting to retry, and then dies.
    await api(server.url, token, 'PUT', '/local/v1/faults', [{ pathPrefix: '/law/api/v1/payroll-submissions', errorRate: 1, errorStatus: 503 }]);
    try {
      const first = startCli(['watch', shared, '--base-url', server.url, '--json'], envA, as(CLERK_A));
      await exportAs(CLERK_A, join(shared, 'census-a.csv'), censusCsv('shared-a'));
      await eventually(() => first.events.find((e) => e.event === 'job' && e.data.state === 'waiting'), 60_000);
      first.child.kill('SIGKILL');
      await first.exited;
    } finally {
      await api(server.url, token, 'DELETE', '/local/v1/faults');
    }
    const claims = join(shared, CLAIMS_FOLDER);
    const claimsOfA = join(claims, claimOwner(envA.PAYROLL_DATA_DIR));
    expect(await listFiles(shared)).toContain(join(CLAIMS_FOLDER, claimOwner(envA.PAYROLL_DATA_DIR), 'census-a.csv'));
    // The group's access of the shared folder (setgid kept), none for others; the claim's record readable by the group.
    for (const dir of [claims, claimsOfA, join(claimsOfA, CLAIM_RECORDS)]) {
      expect({ dir, mode: await modeOf(dir), ...(await ownersOf(dir)) }).toEqual({ dir, mode: '2770', uid: CLERK_A, gid: GROUP });
    }
    expect(await modeOf(join(claimsOfA, CLAIM_RECORDS, 'census-a.csv'))).toBe('640');

    // B, another account of the group: claims its own file in A's .processing, and takes A's claim over.
    const second = startCli(['watch', shared, '--base-url', server.url, '--json'], envB, as(CLERK_B));
    try {
      await exportAs(CLERK_B, join(shared, 'census-b.csv'), censusCsv('shared-b'));
      await eventually(() => {
        const results = second.events.filter((e) => e.event === 'result' && e.data.archivedPath !== undefined);
        return results.length >= 2 ? results : undefined;
      }, 90_000);
    } finally {
      second.child.kill('SIGTERM');
      await second.exited;
    }
    expect(second.stderr()).toMatch(/census-a\.csv: taken over from the uploader/);
    expect(second.stderr()).not.toMatch(/EACCES|permission denied|may not/);
    const filed = (await listFiles(shared)).filter((f) => !f.startsWith(CLAIMS_FOLDER));
    expect(filed.map((f) => f.replace(/\d{4}-\d{2}-\d{2}/, 'DAY'))).toEqual(['uploaded/DAY/census-a.csv', 'uploaded/DAY/census-b.csv']);
    const day = join(shared, 'uploaded', /uploaded\/(\d{4}-\d{2}-\d{2})\//.exec(filed[0]!)![1]!);
    for (const dir of [join(shared, 'uploaded'), day]) {
      expect({ dir, mode: await modeOf(dir), ...(await ownersOf(dir)) }).toEqual({ dir, mode: '2770', uid: CLERK_B, gid: GROUP });
    }
    // B's own file is filed owner-only (A's stays as it was: B may not change another account's file).
    expect(await modeOf(join(day, 'census-b.csv'))).toBe('600');

    // A, back again, files its next export into the folders B made.
    await exportAs(CLERK_A, join(shared, 'census-a2.csv'), censusCsv('shared-a2'));
    const again = await runCli(['watch', shared, '--base-url', server.url, '--once'], envA, '', as(CLERK_A));
    expect(again.code, again.stderr).toBe(0);
    expect(await listFiles(day)).toEqual(['census-a.csv', 'census-a2.csv', 'census-b.csv']);
  }, 240_000);

  it('a .processing or uploaded/ folder another account made owner-only (an older version) is named, with its owner and what to do', async () => {
    const shared = await sharedFolder();
    const envB = await dataOf(CLERK_B);
    // As A's uploader of an older version left them: `.processing` 0755 (mkdir under umask 022), `uploaded/` 0700.
    const claims = join(shared, CLAIMS_FOLDER);
    await mkdir(claims);
    await chown(claims, CLERK_A, GROUP);
    await chmod(claims, 0o755);
    await exportAs(CLERK_B, join(shared, 'census-x.csv'), censusCsv('refused-claim'));
    const notClaimed = await runCli(['watch', shared, '--base-url', server.url, '--once', '--max-wait', '30'], envB, '', as(CLERK_B));
    expect(notClaimed.code).toBe(1);
    expect(notClaimed.stderr).toContain(
      `not taken: census-x.csv: this uploader may not write in the folder ${claims}, which belongs to the account with id ${CLERK_A}, `
      + `and it needs to: the uploaders that share ${shared} move each file into a folder of their own in its .processing folder `
      + 'before reading it, and take over the files of one that stopped. Have the account with id '
      + `${CLERK_A} or an administrator give the group of the watched folder write access to ${claims} and the folders in it `
      + '(chgrp and chmod g+rwx on each), as an uploader of this version makes them in a folder shared with its group; it stays in place for the next run',
    );
    expect(notClaimed.stderr).not.toContain(`may not write in the folder ${shared},`);
    expect(await listFiles(shared)).toEqual(['census-x.csv']);

    // A's .processing gone (as A's uploader removes it at stop); its uploaded/ stays, owner-only.
    await rm(claims, { recursive: true });
    const archive = join(shared, 'uploaded');
    await mkdir(archive);
    await chown(archive, CLERK_A, GROUP);
    await chmod(archive, 0o700);
    const notFiled = await runCli(['watch', shared, '--base-url', server.url, '--once'], envB, '', as(CLERK_B));
    expect(notFiled.code).toBe(1);
    const refusal = `this user may not file into the folder ${archive}, which belongs to the account with id ${CLERK_A}: the uploaders of several `
      + `accounts that share ${shared} file into the same folders there. Have the account with id ${CLERK_A} or an administrator give the `
      + 'group of those accounts write access to that folder and the folders in it (chgrp and chmod g+rwx on each), as an uploader of '
      + 'this version makes them in a folder shared with its group; or give the uploaders one account, or an archive.dir each';
    expect(notFiled.stderr).toContain(`census-x.csv: moving the file to its archive folder failed: ${refusal}; trying again later`);
    // Said once, not at every try; and the run's summary says the file was uploaded, and why it is not filed.
    expect(notFiled.stderr.split('moving the file to its archive folder failed').length - 1).toBe(1);
    expect(notFiled.stderr).toContain(`failed: census-x.csv: uploaded (the service has it), but it could not be moved to its archive folder: ${refusal}; it stays queued for the next run`);
    expect(notFiled.stderr).not.toMatch(/EACCES|lstat|: uploaded;/);
  }, 240_000);
});
