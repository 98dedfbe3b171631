import { chmod, chown, mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NotOwnError, SharedFolderError, makePrivateDir, makePrivateFile } from './private-files';

const modeOf = async (path: string) => (await stat(path)).mode & 0o777;
/** Another user of the computer (nobody); the tests run as root, who may give a file away. */
const OTHER_UID = 65534;

describe('private folders and files', () => {
  let root: string;
  let umask: number;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'private-files-'));
    umask = process.umask(0o022);
  });
  afterEach(async () => {
    process.umask(umask);
    await rm(root, { recursive: true, force: true });
  });

  it('makes new folders 0700 and new files 0600 under the usual umask', async () => {
    const dir = join(root, 'a', 'data');
    makePrivateDir(dir);
    expect(await modeOf(dir)).toBe(0o700);
    makePrivateFile(join(dir, 'db.sqlite'));
    expect(await modeOf(join(dir, 'db.sqlite'))).toBe(0o600);
  });

  it('takes access by others from an existing folder or file and leaves the owner\'s own bits', async () => {
    const open = join(root, 'open');
    await mkdir(open);
    await chmod(open, 0o777);
    makePrivateDir(open);
    expect(await modeOf(open)).toBe(0o700);
    const readOnly = join(root, 'read-only');
    await mkdir(readOnly);
    await chmod(readOnly, 0o555);
    makePrivateDir(readOnly);
    expect(await modeOf(readOnly)).toBe(0o500);
    const file = join(open, 'settings.json');
    await writeFile(file, '{}');
    await chmod(file, 0o644);
    makePrivateFile(file, { create: false });
    expect(await modeOf(file)).toBe(0o600);
  });

  it('keeps a folder\'s setgid bit while taking group access away, and refuses a folder shared by every user', async () => {
    const grouped = join(root, 'grouped');
    await mkdir(grouped);
    await chmod(grouped, 0o2770);
    makePrivateDir(grouped);
    expect((await stat(grouped)).mode & 0o7777).toBe(0o2700);
    const shared = join(root, 'shared');
    await mkdir(shared);
    await chmod(shared, 0o1777);
    expect(() => makePrivateDir(shared)).toThrow(SharedFolderError);
    expect(() => makePrivateDir(shared)).toThrow(/is shared by every user of this computer \(as \/tmp is\)/);
    expect((await stat(shared)).mode & 0o7777).toBe(0o1777);
  });

  it('leaves a missing file missing when it must not be made empty', () => {
    makePrivateFile(join(root, 'settings.json'), { create: false });
    expect(existsSync(join(root, 'settings.json'))).toBe(false);
  });

  it('refuses a folder or file of another user, and changes neither', async () => {
    const theirs = join(root, 'theirs');
    await mkdir(theirs, { mode: 0o755 });
    await chown(theirs, OTHER_UID, OTHER_UID);
    expect(() => makePrivateDir(theirs)).toThrow(NotOwnError);
    expect(await modeOf(theirs)).toBe(0o755);
    const file = join(root, 'settings.json');
    await writeFile(file, '{}', { mode: 0o644 });
    await chown(file, OTHER_UID, OTHER_UID);
    expect(() => makePrivateFile(file, { create: false })).toThrow(/settings\.json belongs to another user of this computer/);
    expect(await modeOf(file)).toBe(0o644);
  });
});
