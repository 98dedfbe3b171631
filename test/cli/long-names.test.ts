/**
 * File names near the 255-byte limit of a name (the service takes names of up to 255 characters): a real
 * `payroll-uploader watch --once`, a real local server, real long unicode names. The names the uploader makes from
 * them (`<name>.error.txt`, `<name>.warnings.txt`, `name (1).csv` in the archive and in the claim folder) must fit,
 * or the file is never filed.
 */
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCli, uploaderEnv } from '../helpers/cli';
import { md5 } from '../helpers/csv-fixtures';
import { startTestServer, tempDir, type TestServer } from '../helpers/local-server';
import { censusCsv } from '../helpers/queue-kit';
import { CLAIMS_FOLDER, claimOwner } from '../../electron/core/queue/folder-claims';

async function listFiles(dir: string): Promise<string[]> {
  return (await readdir(dir, { recursive: true, withFileTypes: true }))
    .filter((e) => !e.isDirectory()).map((e) => join(e.parentPath, e.name).slice(dir.length + 1)).sort();
}

// 'é' is 2 bytes in UTF-8, '📄' 4 (two UTF-16 units): each name below is 253 bytes, and where it has to be cut the
// cut falls inside a character, which must be dropped whole.
const E = 'é';
const PAGE = '📄';
const refused = `census-${E.repeat(60)}${PAGE.repeat(30)}-a.csv`;
const warned = `census-${E.repeat(60)}${PAGE.repeat(30)}-b.csv`;
const twice = `census-${E.repeat(61)}${PAGE.repeat(30)}.csv`;

describe('payroll-uploader: names of about 255 bytes', () => {
  let server: TestServer;
  let dirs: string[] = [];
  const folder = async (prefix: string) => {
    const dir = await tempDir(prefix);
    dirs.push(dir);
    return dir;
  };
  const uploaded = (checksum: string) =>
    (server.ctx.db.prepare("SELECT count(*) AS n FROM files WHERE checksum = ? AND status = 'UPLOADED'").get(checksum) as { n: number }).n;

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.stop());
  afterEach(async () => {
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
    dirs = [];
  });

  it('a refused, a warned and a twice-claimed file with 253-byte names are all filed, their notes and suffixed names cut to fit', async () => {
    for (const name of [refused, warned, twice]) expect(Buffer.byteLength(name)).toBe(253);
    const env = uploaderEnv(await folder('payroll-data-'));
    const dir = await folder('payroll-long-');
    await writeFile(join(dir, refused), 'foo,bar\n1,2\n');
    const warnedContent = `${censusCsv('long-warned', 3)}Doe,Jane,long-bad,2020-02-30,ACTIVE\n`;
    await writeFile(join(dir, warned), warnedContent);
    // A copy of `twice` claimed by an earlier run of this uploader that stopped before journaling it: it is taken
    // up, and the new file of that name in the folder is claimed beside it as `… (1).csv`.
    const claims = join(dir, CLAIMS_FOLDER, claimOwner(env.PAYROLL_DATA_DIR));
    await mkdir(claims, { recursive: true });
    const earlier = censusCsv('long-earlier');
    const newer = censusCsv('long-newer');
    await writeFile(join(claims, twice), earlier);
    await writeFile(join(dir, twice), newer);

    const res = await runCli(['watch', dir, '--base-url', server.url, '--once', '--max-wait', '30'], env);
    // Exit 1: the refused file counts as failed; nothing else does.
    expect(res.code, res.stderr).toBe(1);
    expect(res.stderr).not.toMatch(/ENAMETOOLONG|stays queued|trying again later/);
    expect(res.stdout.match(/uploaded\s+census-/g)).toHaveLength(3);

    const files = await listFiles(dir);
    const day = files.find((f) => f.startsWith('uploaded/'))!.split('/')[1]!;
    const cutForError = `census-${E.repeat(60)}${PAGE.repeat(28)}.csv.error.txt`;
    const cutForWarnings = `census-${E.repeat(60)}${PAGE.repeat(28)}.warnings.txt`;
    const cutForSuffix = `census-${E.repeat(61)}${PAGE.repeat(29)} (1).csv`;
    expect(files).toEqual([
      `rejected/${refused}`, `rejected/${cutForError}`,
      `uploaded/${day}/${warned}`, `uploaded/${day}/${cutForWarnings}`,
      `uploaded/${day}/${twice}`, `uploaded/${day}/${cutForSuffix}`,
    ].sort());
    for (const f of files) expect(Buffer.byteLength(f.split('/').pop()!)).toBeLessThanOrEqual(255);
    expect(await readFile(join(dir, 'rejected', cutForError), 'utf8')).toContain(`${refused} was not uploaded.`);
    expect(await readFile(join(dir, 'uploaded', day, cutForWarnings), 'utf8')).toMatch(/line 5: .*hireDate/);
    expect(uploaded(md5(warnedContent))).toBe(1);
    expect(uploaded(md5(earlier))).toBe(1);
    expect(uploaded(md5(newer))).toBe(1);
    // The second run finds nothing left over.
    const again = await runCli(['watch', dir, '--base-url', server.url, '--once', '--max-wait', '30'], env);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).not.toMatch(/resuming/);
  }, 180_000);
});
