/**
 * What the uploader keeps in its data folder (settings that may hold a proxy's password, the journal with payroll
 * file names and unused upload addresses) is its user's only: the real command under the common umask 022, a data
 * folder made new, one left open to others, and one that belongs to another user.
 */
import { chmod, chown, mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCli, uploaderEnv } from '../helpers/cli';
import type { TestServer } from '../helpers/local-server';
import { startTestServer, tempDir } from '../helpers/local-server';
import { censusCsv } from '../helpers/queue-kit';

/** Runs the command with the umask most systems give their users (new files 0644, folders 0755). */
const UMASK_022 = ['sh', '-c', 'umask 022; exec "$0" "$@"'];
const modeOf = async (path: string) => (await stat(path)).mode & 0o777;
/** Another user of the computer (nobody). */
const OTHER_UID = 65534;

describe('the uploader data folder is its user\'s only', () => {
  let server: TestServer;
  let dirs: string[] = [];
  const folder = async () => {
    const dir = await tempDir('payroll-private-');
    dirs.push(dir);
    return dir;
  };
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.stop());
  afterEach(async () => {
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
    dirs = [];
  });

  /** Uploads one file with `watch --once` on `dataDir`; the journal then has its -wal and -shm files. */
  let uploads = 0;
  const uploadOnce = async (dataDir: string) => {
    const watched = await folder();
    // Each test's file is a new one to the service (one it already holds would be filed as a duplicate).
    uploads += 1;
    await writeFile(join(watched, 'census-private.csv'), censusCsv(`private-${uploads}`));
    return runCli(['watch', watched, '--base-url', server.url, '--once'], uploaderEnv(dataDir), '', UMASK_022);
  };

  it('a new data folder is made 0700 and the journal with its -wal and -shm files 0600', async () => {
    const dataDir = join(await folder(), 'made-by-the-uploader');
    const res = await uploadOnce(dataDir);
    expect(res.code, res.stderr).toBe(0);
    expect(await modeOf(dataDir)).toBe(0o700);
    const journalFiles = (await readdir(dataDir)).filter((name) => name.startsWith('upload-queue.sqlite'));
    expect(journalFiles).toContain('upload-queue.sqlite');
    for (const name of journalFiles) expect(await modeOf(join(dataDir, name)), name).toBe(0o600);
  }, 60_000);

  it('a data folder and settings left open to other users are made its user\'s only, the owner\'s own access kept', async () => {
    const dataDir = await folder();
    await chmod(dataDir, 0o777);
    const settings = join(dataDir, 'settings.json');
    await writeFile(settings, '{}\n');
    await chmod(settings, 0o666);
    const res = await uploadOnce(dataDir);
    expect(res.code, res.stderr).toBe(0);
    expect(await modeOf(dataDir)).toBe(0o700);
    expect(await modeOf(settings)).toBe(0o600);
    expect(await modeOf(join(dataDir, 'upload-queue.sqlite'))).toBe(0o600);
  }, 60_000);

  it('a data folder of another user is refused, naming it, and nothing is written in it', async () => {
    const dataDir = join(await folder(), 'theirs');
    await mkdir(dataDir);
    await chown(dataDir, OTHER_UID, OTHER_UID);
    const res = await uploadOnce(dataDir);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(`the folder ${dataDir} belongs to another user of this computer`);
    expect(res.stderr).toContain('Choose another data folder (PAYROLL_DATA_DIR)');
    expect(await readdir(dataDir)).toEqual([]);
  }, 60_000);

  it('a settings file of another user in the data folder is refused, naming it', async () => {
    const dataDir = await folder();
    const settings = join(dataDir, 'settings.json');
    await writeFile(settings, '{}\n');
    await chown(settings, OTHER_UID, OTHER_UID);
    const res = await uploadOnce(dataDir);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(`the file ${settings} belongs to another user of this computer`);
  }, 60_000);
});
