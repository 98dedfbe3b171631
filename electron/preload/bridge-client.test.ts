import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import { BRIDGE_IPC, type BridgeApi } from '../../shared/bridge';
import { CHANNELS, createBridgeClient } from './bridge-client';

function fakeIpc(answer: (method: string, request: unknown) => unknown) {
  const emitter = new EventEmitter();
  const invoke = vi.fn((_channel: string, method: string, request: unknown) => Promise.resolve(answer(method, request)));
  return { ipc: { invoke, on: (channel: string, listener: (...args: unknown[]) => void) => emitter.on(channel, listener) } as never, emitter, invoke };
}

describe('window.payroll over IPC', () => {
  it('uses the contract channels', () => {
    expect(CHANNELS).toEqual(BRIDGE_IPC);
  });

  it('calls payroll:call with the method and request and resolves with the result', async () => {
    const { ipc, invoke } = fakeIpc(() => ({ ok: true, result: { state: 'watching', folder: '/in' } }));
    const api: BridgeApi = createBridgeClient(ipc);
    expect(api.platform).toBe('desktop');
    await expect(api.call('watch.state', {})).resolves.toEqual({ state: 'watching', folder: '/in' });
    expect(invoke).toHaveBeenCalledWith('payroll:call', 'watch.state', {});
  });

  it('rejects with the envelope as plain data (contextBridge would strip an Error of its code)', async () => {
    const envelope = { name: 'BridgeError', code: 'invalid_argument', message: 'jobs.get: id: expected number', fields: [{ path: 'id', message: 'expected number' }] };
    const { ipc } = fakeIpc(() => ({ ok: false, error: envelope }));
    const api = createBridgeClient(ipc);
    await expect(api.call('jobs.get', { id: 1 })).rejects.toEqual(envelope);
    const { ipc: broken } = fakeIpc(() => undefined);
    await expect(createBridgeClient(broken).call('watch.state', {})).rejects.toMatchObject({ code: 'internal' });
  });

  it('delivers events by name to their listeners until they unsubscribe, and survives a failing listener', () => {
    const { ipc, emitter } = fakeIpc(() => undefined);
    const api = createBridgeClient(ipc);
    const folder = vi.fn();
    const failing = vi.fn(() => {
      throw new Error('screen bug');
    });
    api.on('folder', failing);
    const off = api.on('folder', folder);
    emitter.emit('payroll:event', {}, { event: 'folder', payload: { state: 'paused' } });
    emitter.emit('payroll:event', {}, { event: 'job', payload: { id: 1 } });
    emitter.emit('payroll:event', {}, 'garbage');
    off();
    emitter.emit('payroll:event', {}, { event: 'folder', payload: { state: 'watching' } });
    expect(folder.mock.calls).toEqual([[{ state: 'paused' }]]);
    expect(failing).toHaveBeenCalledTimes(2);
  });
});
