/**
 * The notices the core keeps for the clerk, over browser mode's real HTTP bridge and event stream on a real session
 * (settings file, journal, keychain, the embedded local server, a watched folder): a file refused while no window
 * listened is in notices.list for the window opened later; a dismissal, a put-back and "dismiss all" take notices away
 * for every window (`noticesGone` on the stream); the core keeps the newest 100 and says how many it left out.
 */
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOTICES_KEPT, type BridgeMethodName, type BridgeResponse, type JobView, type KeptNotice, type NoticesGone } from '../../shared/bridge';
import { censusRow, csvText } from '../helpers/csv-fixtures';
import { startKeyring, type KeyringHandle } from '../helpers/keyring';
import { eventually, tempDir } from '../helpers/local-server';
import { readSse, type SseReader } from '../helpers/sse';
import { callBridge } from '../helpers/ui-app';
import { startUiEngine, type UiEngine } from '../helpers/ui-engine';

describe('notices kept by the core', () => {
  let keyring: KeyringHandle;
  let engine: UiEngine;
  let watched: string;
  let stream: SseReader | undefined;

  /** A method over HTTP, as a page calls it. */
  const ok = async <M extends BridgeMethodName>(method: M, request: unknown = {}): Promise<BridgeResponse<M>> => {
    const { status, body } = await callBridge(engine.server, method, request);
    if (status !== 200) throw new Error(`${method}: ${status} ${JSON.stringify(body)}`);
    return (body as { result: BridgeResponse<M> }).result;
  };
  const refusalOf = async (name: string): Promise<KeptNotice | undefined> =>
    (await ok('notices.list')).items.find((n) => n.message.startsWith(`${name} was refused`));
  /** The `noticesGone` events on the stream so far. */
  const gone = (): NoticesGone[] => (stream?.messages ?? []).filter((m) => m.event === 'noticesGone').map((m) => JSON.parse(m.data) as NoticesGone);

  beforeAll(async () => {
    keyring = await startKeyring();
    Object.assign(process.env, keyring.env);
    watched = await tempDir('payroll-notices-');
    engine = await startUiEngine({ settings: { watchedFolder: watched, stabilityMs: 200, sweepIntervalMs: 1000, preflight: 'block' } });
    await ok('localServer.start');
    await ok('watch.start');
  }, 60_000);

  afterAll(async () => {
    stream?.close();
    await engine?.stop();
    await keyring?.stop();
    await rm(watched, { recursive: true, force: true });
  });

  it('keeps a file refused while no window listened, until a window dismisses it, for every window', async () => {
    expect(engine.server.events.clients()).toBe(0);
    await writeFile(join(watched, 'census-no-status.csv'), 'lastName,firstName\nDoe,Jane\n');
    // No page is open: the core alone hears of the refusal. A page opened now asks for the list.
    const refusal = await eventually(() => refusalOf('census-no-status.csv'), 30_000);
    expect(refusal).toMatchObject({ level: 'warning', path: join(watched, 'census-no-status.csv'), run: expect.any(String) as unknown });
    const [job] = (await ok('jobs.query', { text: 'census-no-status' })).items as [JobView];
    expect(refusal.jobId).toBe(job.id);
    expect(job.outcome).toBe('rejected');

    stream = await readSse(`${engine.server.origin}/bridge/events`, { authorization: `Bearer ${engine.server.token}` });
    await eventually(() => engine.server.events.clients() === 1 || undefined);
    // A dismissal from a window of another run of the engine (restarted since) takes nothing away.
    expect(await ok('notices.dismiss', { run: 'another-run', id: refusal.id })).toEqual({ dismissed: 0 });
    expect(await refusalOf('census-no-status.csv')).toBeDefined();

    expect(await ok('notices.dismiss', { run: refusal.run, id: refusal.id })).toEqual({ dismissed: 1 });
    const said = await eventually(() => gone().find((g) => g.ids.includes(refusal.id)));
    expect(said.run).toBe(refusal.run);
    expect(await refusalOf('census-no-status.csv')).toBeUndefined();
    expect(await ok('notices.dismiss', { run: refusal.run, id: refusal.id })).toEqual({ dismissed: 0 });
  }, 60_000);

  it('drops a refusal once the mended file is put back in the queue', async () => {
    await writeFile(join(watched, 'census-bad-date.csv'), csvText('census', [censusRow(1, { hireDate: '2020-13-45' })]));
    const refusal = await eventually(() => refusalOf('census-bad-date.csv'), 30_000);
    const [job] = (await ok('jobs.query', { text: 'census-bad-date' })).items as [JobView];
    await writeFile(job.archivedPath as string, csvText('census', [censusRow(1)]));
    await ok('jobs.requeue', { id: job.id });
    expect(await refusalOf('census-bad-date.csv')).toBeUndefined();
    await eventually(() => gone().find((g) => g.ids.includes(refusal.id)));
  }, 60_000);

  it('keeps the newest 100, says how many were left out, and dismisses all up to what the window saw', async () => {
    const many = NOTICES_KEPT + 5;
    // Every sheet said, whatever order and pace the watcher finds them in: 100 said are not yet all of them.
    const saidOf = new Set<string>();
    const off = engine.session.notices.on('notice', (notice) => {
      const sheet = /^(sheet-\d{3}\.xlsx) is not a CSV export/.exec(notice.message)?.[1];
      if (sheet) saidOf.add(sheet);
    });
    for (let i = 1; i <= many; i += 1) await writeFile(join(watched, `sheet-${String(i).padStart(3, '0')}.xlsx`), 'not a csv');
    try {
      await eventually(() => (saidOf.size === many ? true : undefined), 30_000);
    } finally {
      off();
    }
    const list = await ok('notices.list');
    expect(list.items.filter((n) => n.level === 'info')).toHaveLength(NOTICES_KEPT);
    expect(list.items).toHaveLength(NOTICES_KEPT);
    expect(list.leftOut).toBeGreaterThanOrEqual(5);
    const ids = list.items.map((n) => n.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    // The last change may be the oldest left out for the newest, after it was said.
    expect(list.version).toBeGreaterThanOrEqual(ids[0] as number);

    expect(await ok('notices.dismissAll', { run: list.run, upTo: list.version })).toEqual({ dismissed: NOTICES_KEPT });
    expect(await ok('notices.list')).toMatchObject({ run: list.run, items: [], leftOut: 0 });
    const last = await eventually(() => gone().find((g) => g.version > list.version && g.leftOut === 0 && g.ids.length === NOTICES_KEPT));
    expect(last.ids.sort((a, b) => a - b)).toEqual([...ids].sort((a, b) => a - b));
  }, 60_000);
});
