/**
 * A notice of a problem that lasts goes by itself once the problem is over, in every window: here the upload journal
 * on a real full disk (a 2 MB tmpfs under the app's data folder), on a real session watching a real folder and
 * uploading to a real local server. Before, "new files cannot be taken up for now: … the disk … is full" stayed beside
 * "the upload journal can be written again" until the clerk dismissed it.
 */
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { KeptNotice, NoticesGone } from '../../shared/bridge';
import { startFullDiskWorld, type FullDiskWorld } from '../helpers/full-disk-engine';
import { eventually } from '../helpers/local-server';
import { censusCsv } from '../helpers/queue-kit';
import { callOk } from '../helpers/ui-engine';

let world: FullDiskWorld | undefined;

beforeAll(async () => {
  world = await startFullDiskWorld();
}, 120_000);

afterAll(async () => {
  await world?.close();
});

it('takes the full-disk notice away once the journal is written again, for every window', async () => {
  const { engine, stream, disk, watched } = world!;
  const notices = async (): Promise<KeptNotice[]> => (await callOk(engine, 'notices.list')).items;
  const full = async () => (await notices()).find((n) => /cannot be taken up for now/.test(n.message));

  await writeFile(join(watched, 'census-warm.csv'), censusCsv('over-warm'));
  await eventually(async () => (await callOk(engine, 'jobs.query', { text: 'census-warm' })).items.find((j) => j.finished), 60_000);
  // Fill the disk under the journal to the last byte, then export a file.
  const filler = await disk.fill();
  await writeFile(join(watched, 'census-full.csv'), censusCsv('over-full'));
  const said = await eventually(full, 60_000);
  expect(said).toMatchObject({ level: 'error', until: 'journal-written' });

  await rm(filler);
  await eventually(async () => (await notices()).find((n) => /the upload journal can be written again/.test(n.message)), 60_000);
  // Over: gone from the list a window opened now asks for, and from the windows open (the stream says so).
  expect(await full()).toBeUndefined();
  // The stream may say it a moment after the list: waited for, not read at once.
  const goneSaid = () => stream.messages.filter((m) => m.event === 'noticesGone').map((m) => JSON.parse(m.data) as NoticesGone)
    .some((g) => g.ids.includes(said.id));
  await eventually(() => Promise.resolve(goneSaid() ? true : undefined), 10_000);
  await eventually(async () => (await callOk(engine, 'jobs.query', { text: 'census-full' })).items.find((j) => j.outcome === 'uploaded'), 60_000);
}, 180_000);
