/**
 * Settings that cannot be written (the disk under the data folder is full: a real 2 MB tmpfs) are refused through the
 * bridge as a `conflict` naming the settings file and the problem, which the screens show as it is; before, the
 * bridge answered `internal`, as for a fault of the app.
 */
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startKeyring, type KeyringHandle } from '../helpers/keyring';
import { callFails, callOk, startUiEngine, type UiEngine } from '../helpers/ui-engine';
import { mountSmallDisk, type SmallDisk } from '../helpers/small-disk';

let keyring: KeyringHandle | undefined;
let engine: UiEngine | undefined;
let disk: SmallDisk | undefined;

beforeAll(async () => {
  keyring = await startKeyring();
  Object.assign(process.env, keyring.env);
  disk = await mountSmallDisk('2m', { prefix: 'payroll-settings-disk-' });
}, 60_000);

afterAll(async () => {
  await engine?.stop();
  await disk?.remove();
  await keyring?.stop();
});

it('refuses settings it cannot write as a conflict that names the file, and keeps what was saved', async () => {
  const dataDir = join(disk!.path, 'data');
  await mkdir(dataDir);
  engine = await startUiEngine({ dataDir, settings: { concurrency: 2 } });
  const filler = await disk!.fill();
  const refused = await callFails(engine, 'settings.patch', { concurrency: 3 });
  expect(refused.code).toBe('conflict');
  expect(refused.message).toContain(`The settings file ${join(dataDir, 'settings.json')} could not be written`);
  expect(refused.message).toMatch(/nothing was saved$/);
  expect((await callOk(engine, 'settings.get')).settings.concurrency).toBe(2);
  await rm(filler);
  expect((await callOk(engine, 'settings.patch', { concurrency: 3 })).settings.concurrency).toBe(3);
}, 60_000);
