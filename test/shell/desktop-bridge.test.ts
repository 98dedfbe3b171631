/** The preload's window.payroll as the renderer's getBridge() sees it: a failed call is a BridgeError with its code. */
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { BridgeError } from '../../shared/bridge';
import { createBridgeClient } from '../../electron/preload/bridge-client';
import { fromPreload } from '../../renderer/bridge/desktop-bridge';

function preloadAnswering(reply: unknown) {
  const emitter = new EventEmitter();
  return createBridgeClient({ invoke: () => Promise.resolve(reply), on: (channel: string, fn: never) => emitter.on(channel, fn) } as never);
}

describe('fromPreload', () => {
  it('turns the envelope back into a BridgeError with code and fields', async () => {
    const envelope = { name: 'BridgeError', code: 'invalid_argument' as const, message: 'jobs.get: id: too small', fields: [{ path: 'id', message: 'too small' }] };
    const error = await fromPreload(preloadAnswering({ ok: false, error: envelope })).call('jobs.get', { id: 0 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BridgeError);
    expect(error).toMatchObject({ code: 'invalid_argument', message: 'jobs.get: id: too small', fields: [{ path: 'id', message: 'too small' }] });
  });

  it('passes results and other failures through', async () => {
    expect(await fromPreload(preloadAnswering({ ok: true, result: { state: 'paused' } })).call('watch.state', {})).toEqual({ state: 'paused' });
    const api = preloadAnswering(undefined);
    const odd = { ...api, call: () => Promise.reject(new Error('ipc gone')) } as typeof api;
    await expect(fromPreload(odd).call('watch.state', {})).rejects.toThrow('ipc gone');
    expect(fromPreload(api).platform).toBe('desktop');
  });
});
