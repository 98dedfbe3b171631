import { describe, expect, it, vi } from 'vitest';
import { BridgeError } from '../../shared/bridge';
import { envelopeOf, startEngineHost, type EngineServices } from './engine-host';
import type { EnginePort } from './engine-protocol';

function memoryPort() {
  const sent: unknown[] = [];
  let deliver: (message: unknown) => void = () => undefined;
  const port: EnginePort = {
    postMessage: (message) => sent.push(message),
    onMessage: (listener) => {
      deliver = listener;
    },
  };
  return { port, sent, send: (message: unknown) => deliver(message) };
}

function services(overrides: Partial<EngineServices> = {}) {
  let emit: (event: string, payload: unknown) => void = () => undefined;
  const unsubscribe = vi.fn();
  const close = vi.fn(() => Promise.resolve());
  const value: EngineServices = {
    call: (method, request) => Promise.resolve({ method, request }),
    subscribe: (fn) => {
      emit = fn;
      return unsubscribe;
    },
    close,
    ...overrides,
  };
  return { value, emit: (event: string, payload: unknown) => emit(event, payload), unsubscribe, close };
}

describe('startEngineHost', () => {
  it('says ready, answers calls by id and forwards events', async () => {
    const { port, sent, send } = memoryPort();
    const s = services();
    startEngineHost(port, s.value);
    expect(sent[0]).toEqual({ type: 'ready' });
    send({ type: 'call', id: 7, method: 'watch.state', request: {} });
    s.emit('folder', { state: 'watching', folder: '/in' });
    await vi.waitFor(() => expect(sent).toContainEqual({ type: 'reply', id: 7, ok: true, result: { method: 'watch.state', request: {} } }));
    expect(sent).toContainEqual({ type: 'event', event: 'folder', payload: { state: 'watching', folder: '/in' } });
  });

  it('answers a BridgeError with its envelope and anything else as internal, without its details', async () => {
    const { port, sent, send } = memoryPort();
    const s = services({
      call: (method) => Promise.reject(method === 'jobs.get'
        ? new BridgeError({ name: 'BridgeError', code: 'not_found', message: 'There is no job 3.' })
        : new Error('SQLITE_BUSY at /home/clerk/secret/path')),
    });
    startEngineHost(port, s.value);
    send({ type: 'call', id: 1, method: 'jobs.get', request: { id: 3 } });
    send({ type: 'call', id: 2, method: 'jobs.query', request: {} });
    await vi.waitFor(() => expect(sent).toHaveLength(3));
    expect(sent).toContainEqual({ type: 'reply', id: 1, ok: false, error: { name: 'BridgeError', code: 'not_found', message: 'There is no job 3.' } });
    const internal = sent.find((m) => (m as { id?: number }).id === 2) as { error: { code: string; message: string } };
    expect(internal.error.code).toBe('internal');
    expect(internal.error.message).not.toContain('SQLITE_BUSY');
  });

  it('ignores what is not a call, stops once on stop, and refuses calls while stopping', async () => {
    const { port, sent, send } = memoryPort();
    const s = services();
    const host = startEngineHost(port, s.value);
    send('nonsense');
    send({ type: 'call', id: 'x', method: 'watch.state' });
    send({ type: 'stop' });
    send({ type: 'stop' });
    send({ type: 'call', id: 9, method: 'watch.state', request: {} });
    await host.stopped;
    expect(s.close).toHaveBeenCalledTimes(1);
    expect(s.unsubscribe).toHaveBeenCalledTimes(1);
    expect(sent).toContainEqual({ type: 'stopped' });
    expect(sent).toContainEqual({ type: 'reply', id: 9, ok: false, error: { name: 'BridgeError', code: 'conflict', message: 'The app is closing.' } });
  });
});

describe('envelopeOf', () => {
  it('passes a plain envelope through and hides unknown errors', () => {
    expect(envelopeOf({ name: 'BridgeError', code: 'conflict', message: 'busy' })).toEqual({ name: 'BridgeError', code: 'conflict', message: 'busy' });
    expect(envelopeOf('boom').code).toBe('internal');
    expect(envelopeOf({ code: 'made_up', message: 'x', name: 'y' }).code).toBe('internal');
  });
});
