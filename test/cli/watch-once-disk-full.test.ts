/**
 * A scheduled `watch --once` whose data folder's disk fills while a file is out: the queue holds the file back with
 * its backoff (nothing can be journaled), and before, the run waited for space for ever; the next scheduled run then
 * found the data folder held and exited 3, never saying why. It now gives up after as many tries as a network failure
 * gets, says which file and why, and exits 1; the file stays queued, and once space is freed the next run sends it,
 * exactly once. Real `payroll-uploader` processes, a real local server, the data folder on a real 1 MB tmpfs.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setFaults } from '../helpers/api-kit';
import { runCli, startCli, uploaderEnv, type RunningCli } from '../helpers/cli';
import { eventually, getToken, startTestServer, tempDir, type TestServer } from '../helpers/local-server';
import { censusCsv, md5Of } from '../helpers/queue-kit';
import { mountSmallDisk, type SmallDisk } from '../helpers/small-disk';

describe('payroll-uploader watch --once on a data folder whose disk fills', () => {
  let server: TestServer;
  let disk: SmallDisk;
  let folder: string;
  let once: RunningCli | undefined;

  beforeAll(async () => {
    server = await startTestServer();
    [disk, folder] = await Promise.all([mountSmallDisk('1m', { prefix: 'watch-once-tmpfs-' }), tempDir('watch-once-full-')]);
  });
  afterAll(async () => {
    once?.child.kill('SIGKILL');
    await once?.exited;
    await disk?.remove();
    await rm(folder, { recursive: true, force: true });
    await server?.stop();
  });

  it('gives up on the file it cannot journal, says why and exits 1; the next run, with space, sends it once', async () => {
    const dataDir = join(disk.path, 'data');
    await mkdir(dataDir);
    const env = uploaderEnv(dataDir);
    const content = censusCsv('watch-once-disk-full');
    await writeFile(join(folder, 'census-full.csv'), content);
    const uploaded = () => (server.ctx.db.prepare("SELECT count(*) AS n FROM files WHERE checksum = ? AND status = 'UPLOADED'")
      .get(md5Of(content)) as { n: number }).n;
    // The upload's answer comes back only once the disk is full (filled as soon as the address is granted).
    await setFaults(server.url, await getToken(server.url), [{ pathPrefix: '/uploads/', latencyMs: 8_000 }]);

    once = startCli(['watch', folder, '--base-url', server.url, '--once'], env);
    await eventually(() => (server.ctx.db.prepare('SELECT count(*) AS n FROM files WHERE checksum = ?').get(md5Of(content)) as { n: number }).n > 0
      ? true : undefined, 60_000);
    const filler = await disk.fill();
    // The upload held now answers once its 8 s are over; the tries after it are answered at once.
    await setFaults(server.url, await getToken(server.url), []);

    expect(await once.exited).toBe(1);
    expect(once.stderr()).toMatch(
      /failed: census-full\.csv: its progress could not be written to the upload journal: the disk that holds the data folder .+ is full \(.+\); free some space on it; it stays queued for the next run/,
    );

    // Space freed: the next run goes on from what the journal holds, and the file is sent once and filed.
    await rm(filler);
    const next = await runCli(['watch', folder, '--base-url', server.url, '--once'], env);
    expect(next.stderr).not.toMatch(/failed/);
    expect(next.code).toBe(0);
    expect(uploaded()).toBe(1);
  }, 180_000);
});
