import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  BRIDGE_EVENT_NAMES, BRIDGE_METHOD_NAMES, BridgeError, bridgeErrorEnvelopeSchema, bridgeEvents, bridgeMethods,
  invalidArgument, isBridgeMethod, type BridgeEventName, type BridgeMethodName,
} from './index';
import { DEFAULT_SETTINGS } from '../settings.schema';

const job = {
  id: 7, name: 'census-2026-01.csv', path: '/w/census-2026-01.csv', size: 120, state: 'uploaded', outcome: 'uploaded',
  finished: true, foundAt: 1, foundDay: '2026-01-05', stateChangedAt: 2, attempts: 0, warningCount: 0, fileType: '1',
};
const batch = { id: 1, kind: 'census', records: 2, state: 'sent', createdAt: 1, stateChangedAt: 2, importId: 'x' };
const attempt = {
  id: 3, type: 1, status: 2, httpStatusCode: 200, durationMs: 12, attemptCount: 0, createdAt: '2026-01-05T10:00:00',
  eventId: 'evt_1', eventType: 'import.processed', failure: null,
};
const folder = { folder: '/w', state: 'watching' };
const server = { running: true, url: 'http://127.0.0.1:5000', port: 5000, clientId: 'payroll-uploader-app' };
const status = { profile: 'local', stored: true, source: 'keychain', clientId: 'c' };
const rules = { rules: [{ pathPrefix: '/law', errorRate: 1 }] };
const settingsView = { settings: DEFAULT_SETTINGS, file: '/d/settings.json' };
const kept = { level: 'warning', message: 'census.csv was refused: missing column cpf', jobId: 7, path: '/w/census.csv', id: 4, run: 'a1b2', at: 5 };

type Case = { good: unknown[]; bad: { request: unknown; field: string }[]; response: unknown };
const noBad = [{ request: { extra: 1 }, field: '' }];

/** One case per method: adding a method without a case fails to compile. */
const cases: Record<BridgeMethodName, Case> = {
  'settings.get': { good: [{}], bad: noBad, response: settingsView },
  'settings.patch': { good: [{ concurrency: 3 }, { proxy: null }], bad: [{ request: [1], field: '' }], response: settingsView },
  'profile.switch': { good: [{ profile: 'sandbox' }], bad: [{ request: { profile: 'staging' }, field: 'profile' }], response: settingsView },
  'credentials.set': {
    good: [{ profile: 'sandbox', clientId: 'c', clientSecret: 's' }],
    bad: [{ request: { profile: 'sandbox', clientId: '', clientSecret: 's' }, field: 'clientId' },
      { request: { profile: 'sandbox', clientId: 'c' }, field: 'clientSecret' }],
    response: status,
  },
  'credentials.status': { good: [{ profile: 'local' }], bad: [{ request: {}, field: 'profile' }], response: { profile: 'sandbox', stored: false, source: 'none' } },
  'credentials.delete': { good: [{ profile: 'production' }], bad: [{ request: { profile: 1 }, field: 'profile' }], response: status },
  'credentials.test': { good: [{ profile: 'local' }], bad: [{ request: {}, field: 'profile' }], response: { ok: false, scopes: [], ms: 3, message: 'no' } },
  'watch.state': { good: [{}], bad: noBad, response: { state: 'stopped' } },
  'watch.setFolder': { good: [{ folder: '/data/exports' }], bad: [{ request: { folder: '' }, field: 'folder' }], response: folder },
  'watch.browse': { good: [{}], bad: noBad, response: { folder: null } },
  'watch.start': { good: [{}], bad: noBad, response: folder },
  'watch.pause': { good: [{}], bad: noBad, response: { folder: '/w', state: 'paused' } },
  'watch.resume': { good: [{}], bad: noBad, response: folder },
  'watch.stop': { good: [{}], bad: noBad, response: { folder: '/w', state: 'stopped' } },
  'jobs.query': {
    good: [{}, {
      outcomes: ['rejected'], text: 'census', foundSince: Date.UTC(2026, 0, 1, 5), foundBefore: Date.UTC(2026, 1, 1, 5), sort: { by: 'name', dir: 'asc' },
      offset: 100, limit: 500,
    }],
    bad: [{ request: { limit: 501 }, field: 'limit' }, { request: { states: ['lost'] }, field: 'states.0' },
      { request: { foundSince: Date.UTC(2026, 1, 1), foundBefore: Date.UTC(2026, 0, 1) }, field: 'foundBefore' },
      { request: { foundSince: '2026-01-02' }, field: 'foundSince' }, { request: { foundBefore: 1.5 }, field: 'foundBefore' },
      { request: { sort: { by: 'md5', dir: 'asc' } }, field: 'sort.by' }],
    response: { total: 1, items: [job] },
  },
  'jobs.get': { good: [{ id: 1 }], bad: [{ request: { id: 0 }, field: 'id' }, { request: { id: '1' }, field: 'id' }], response: { ...job, archivedFileThere: true, warnings: [{ line: 3, field: 'cpf', message: 'bad' }] } },
  'jobs.retryNow': { good: [{ id: 1 }], bad: [{ request: {}, field: 'id' }], response: job },
  'jobs.requeue': { good: [{ id: 1 }], bad: [{ request: { id: 1.5 }, field: 'id' }], response: job },
  'jobs.reveal': { good: [{ id: 1 }], bad: [{ request: {}, field: 'id' }], response: { path: '/w/a.csv', revealed: false } },
  'jobs.errorFile': { good: [{ id: 1 }], bad: [{ request: {}, field: 'id' }], response: { path: '/w/rejected/a.csv.error.txt', text: 'x' } },
  'batches.send': {
    good: [{ kind: 'census', records: [{}] }],
    bad: [{ request: { kind: 'payroll', records: [{}] }, field: 'kind' }, { request: { kind: 'receipt', records: [] }, field: 'records' }],
    response: { ok: false, problems: [{ index: 0, field: 'cpf', message: 'required', source: 'local' }] },
  },
  'batches.list': { good: [{}, { offset: 10, limit: 20 }], bad: [{ request: { limit: 0 }, field: 'limit' }], response: { total: 1, items: [batch] } },
  'deliveries.list': { good: [{}, { status: 3, maxRetries: 5, limit: 1000 }], bad: [{ request: { status: 4 }, field: 'status' }, { request: { maxRetries: 6 }, field: 'maxRetries' }], response: { items: [attempt] } },
  'deliveries.get': { good: [{ id: 3 }], bad: [{ request: { id: -1 }, field: 'id' }], response: attempt },
  'deliveries.redeliver': { good: [{ id: 3 }], bad: [{ request: {}, field: 'id' }], response: attempt },
  'notices.list': { good: [{}], bad: noBad, response: { run: 'a1b2', version: 4, items: [kept], leftOut: 2 } },
  'notices.dismiss': {
    good: [{ run: 'a1b2', id: 4 }], bad: [{ request: { run: 'a1b2', id: 0 }, field: 'id' }, { request: { id: 4 }, field: 'run' }], response: { dismissed: 1 },
  },
  'notices.dismissAll': {
    good: [{ run: 'a1b2', upTo: 0 }], bad: [{ request: { run: '', upTo: 4 }, field: 'run' }, { request: { run: 'a1b2' }, field: 'upTo' }], response: { dismissed: 0 },
  },
  'localServer.state': { good: [{}], bad: noBad, response: { running: false } },
  'localServer.start': { good: [{}, { port: 8787 }], bad: [{ request: { port: 70000 }, field: 'port' }], response: server },
  'localServer.stop': { good: [{}], bad: noBad, response: { running: false } },
  'localServer.credentials': { good: [{}], bad: noBad, response: { clientId: 'a', clientSecret: 'b' } },
  'localServer.webhook.get': { good: [{}], bad: noBad, response: { url: null, secretSet: false } },
  'localServer.webhook.set': { good: [{ url: 'http://127.0.0.1:9/hook' }, { url: null }], bad: [{ request: { url: 'ftp://x' }, field: 'url' }], response: { url: 'http://127.0.0.1:9/hook', secretSet: true, secret: 'whsec_x' } },
  'localServer.requestLog': { good: [{}, { limit: 50 }], bad: [{ request: { limit: 0 }, field: 'limit' }], response: { items: [{ id: 1, at: '2026-01-01T00:00:00Z', method: 'GET', path: '/x', status: 200, ms: 1 }] } },
  'localServer.faults.list': { good: [{}], bad: noBad, response: rules },
  'localServer.faults.set': { good: [rules], bad: [{ request: { rules: [{ pathPrefix: 'law' }] }, field: 'rules.0.pathPrefix' }], response: rules },
  'localServer.faults.clear': { good: [{}], bad: noBad, response: { rules: [] } },
};

describe('bridge methods', () => {
  it('has a case for exactly the methods of the contract', () => {
    expect(Object.keys(cases).sort()).toEqual([...BRIDGE_METHOD_NAMES].sort());
  });

  for (const name of BRIDGE_METHOD_NAMES) {
    describe(name, () => {
      const spec = bridgeMethods[name];
      const c = cases[name];
      it('accepts good requests', () => {
        for (const request of c.good) expect(spec.request.safeParse(request).error).toBeUndefined();
      });
      it('refuses bad requests and names the field', () => {
        for (const bad of c.bad) {
          const parsed = spec.request.safeParse(bad.request);
          expect(parsed.success).toBe(false);
          const fields = invalidArgument(parsed.error as z.ZodError, name).fields?.map((f) => f.path);
          expect(fields).toContain(bad.field);
        }
      });
      it('describes its answer', () => {
        expect(spec.response.safeParse(c.response).error).toBeUndefined();
        expect(spec.response.safeParse(42).success).toBe(false);
      });
    });
  }

  it('never answers a client secret in a credential status', () => {
    const parsed = bridgeMethods['credentials.status'].response.parse({ ...status, clientSecret: 'leak' });
    expect(parsed).not.toHaveProperty('clientSecret');
  });

  it('fills the defaults of a jobs query', () => {
    expect(bridgeMethods['jobs.query'].request.parse({})).toEqual({ sort: { by: 'foundAt', dir: 'desc' }, offset: 0, limit: 100 });
  });

  it('knows its own method names only', () => {
    expect(isBridgeMethod('jobs.query')).toBe(true);
    expect(isBridgeMethod('toString')).toBe(false);
    expect(isBridgeMethod('__proto__')).toBe(false);
  });
});

describe('bridge events', () => {
  const payloads: Record<BridgeEventName, unknown> = {
    job: job, progress: { id: 7, phase: 'uploading', bytes: 10, total: 120, bytesPerSecond: 5 }, result: job, batch, folder,
    localServer: server, notice: { level: 'error', message: 'census.csv was refused', jobId: 7 },
    noticesGone: { run: 'a1b2', version: 5, ids: [4], leftOut: 0 },
  };
  for (const name of BRIDGE_EVENT_NAMES) {
    it(`${name} describes its payload`, () => {
      expect(bridgeEvents[name].safeParse(payloads[name]).error).toBeUndefined();
      expect(bridgeEvents[name].safeParse('nope').success).toBe(false);
    });
  }

  it('lists only numbered notices: one without its number, run and time is the shell\'s own, never kept by the core', () => {
    const { id: _id, ...unnumbered } = kept;
    expect(bridgeMethods['notices.list'].response.safeParse({ run: 'a1b2', version: 4, items: [unnumbered], leftOut: 0 }).success).toBe(false);
    expect(bridgeEvents.notice.safeParse(kept).success).toBe(true);
  });
});

describe('error envelope', () => {
  it('round-trips through BridgeError as plain data', () => {
    const envelope = { name: 'SettingsValidationError', message: 'bad', code: 'invalid_argument' as const, fields: [{ path: 'proxy', message: 'must be an http(s) URL' }] };
    const error = new BridgeError(envelope);
    expect(error).toBeInstanceOf(Error);
    expect(error.toEnvelope()).toEqual(envelope);
    expect(bridgeErrorEnvelopeSchema.parse(JSON.parse(JSON.stringify(error.toEnvelope())))).toEqual(envelope);
  });

  it('refuses an unknown code', () => {
    expect(bridgeErrorEnvelopeSchema.safeParse({ name: 'E', message: 'm', code: 'oops' }).success).toBe(false);
  });
});
