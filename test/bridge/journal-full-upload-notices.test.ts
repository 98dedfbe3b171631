/**
 * The disk under the journal fills while a file's upload is out (a real 2 MB tmpfs under the app's data folder, a real
 * session watching a real folder, a real local server holding the upload's answer back). Before, every open window got
 * about 2,000 notice events a second ("census.csv: database or disk is full", in SQLite's words) until space returned.
 * Now it gets one notice that names the data folder's disk as full and what to do, and, once space returns, that it is
 * over; the file is uploaded once.
 */
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { KeptNotice, NoticesGone } from '../../shared/bridge';
import { setFaults } from '../helpers/api-kit';
import { startFullDiskWorld, type FullDiskWorld } from '../helpers/full-disk-engine';
import { eventually, getToken } from '../helpers/local-server';
import { censusCsv } from '../helpers/queue-kit';
import { callOk } from '../helpers/ui-engine';

let world: FullDiskWorld | undefined;

beforeAll(async () => {
  world = await startFullDiskWorld();
}, 120_000);

afterAll(async () => {
  await world?.close();
});

it('tells the windows once that uploads wait for a full data disk, not at every try, and that it is over', async () => {
  const { server, engine, stream, disk, watched } = world!;
  const token = await getToken(server.url);
  // The upload's answer comes back only once the disk is full.
  await setFaults(server.url, token, [{ pathPrefix: '/uploads/', latencyMs: 3_000 }]);
  await writeFile(join(watched, 'census-full-put.csv'), censusCsv('full-put'));
  await eventually(async () => (await callOk(engine, 'jobs.query', { text: 'census-full-put' })).items.find((j) => j.state === 'uploading'), 60_000);
  const filler = await disk.fill();

  const notices = () => stream.messages.filter((m) => m.event === 'notice').map((m) => JSON.parse(m.data) as KeptNotice);
  const said = await eventually(() => notices().find((n) => /census-full-put\.csv/.test(n.message)), 60_000);
  expect(said).toMatchObject({ level: 'error', until: 'journal-written' });
  expect(said.message).toMatch(/the disk that holds the data folder .* is full .*; free some space on it/);
  // The queue tries again and again meanwhile: the windows hear nothing more of it.
  await sleep(4_000);
  const after = stream.messages.slice(stream.messages.findIndex((m) => m.event === 'notice' && (JSON.parse(m.data) as KeptNotice).id === said.id));
  expect(after.filter((m) => m.event === 'notice' || m.event === 'noticesGone')).toHaveLength(1);

  await rm(filler);
  await setFaults(server.url, token, []);
  await eventually(async () => (await callOk(engine, 'jobs.query', { text: 'census-full-put' })).items.find((j) => j.outcome === 'uploaded'), 60_000);
  // Over: gone from every window.
  await eventually(() => stream.messages.filter((m) => m.event === 'noticesGone').map((m) => JSON.parse(m.data) as NoticesGone)
    .find((g) => g.ids.includes(said.id)), 30_000);
  expect(notices().filter((n) => /census-full-put\.csv/.test(n.message) && n.level === 'error')).toEqual([said]);
}, 180_000);
