/**
 * An in-memory stand-in of the bridge for component tests: the seam between the renderer and the core. It keeps a small
 * state (settings, credentials, folder, jobs, batches) and answers the methods the screens use with the contract's
 * schemas, so a screen under test sees what the real core would answer; tests emit events as the core would.
 */
import {
  BridgeError, bridgeMethods,
  type BatchView, type BridgeApi, type BridgeEvent, type BridgeEventName, type BridgeMethodName, type BridgeRequest,
  type BridgeResponse, type CredentialStatus, type FolderState, type JobDetail, type JobView,
} from '../../shared/bridge';
import { NO_FILE_TYPE } from '../../shared/files.schema';
import { DEFAULT_SETTINGS, settingsSchema, type ProfileName, type Settings } from '../../shared/settings.schema';

type Handler<M extends BridgeMethodName> = (request: BridgeRequest<M>) => unknown;
type Listener = (payload: unknown) => void;

export type MemoryState = {
  settings: Settings;
  credentials: Record<ProfileName, { clientId: string; secret: string } | undefined>;
  folder: FolderState;
  jobs: JobDetail[];
  batches: BatchView[];
  /** Secrets a credentials.test accepts. */
  goodSecrets: Set<string>;
};

export type MemoryBridge = BridgeApi & {
  state: MemoryState;
  /** Every call made, in order. */
  calls: { method: BridgeMethodName; request: unknown }[];
  emit<E extends BridgeEventName>(event: E, payload: BridgeEvent<E>): void;
  /** Replaces one method's answer; a promise holds it until it settles. */
  override<M extends BridgeMethodName>(method: M, handler: Handler<M>): void;
};

let nextId = 1;
/** A job as the core would describe it; fields not given take plain values. */
export function makeJob(fields: Partial<JobDetail> & { name: string }): JobDetail {
  const id = fields.id ?? nextId++;
  const state = fields.state ?? 'uploaded';
  const outcome = fields.outcome ?? (state === 'uploaded' || state === 'rejected' || state === 'duplicate' ? state : undefined);
  return {
    id, path: `/data/exports/${fields.name}`, size: 2048, state, finished: outcome !== undefined,
    foundAt: Date.UTC(2026, 10, 20, 9, 0, 0) + id * 60_000, foundDay: '2026-11-20', stateChangedAt: Date.UTC(2026, 10, 20, 9, 5),
    attempts: 0, warningCount: 0, warnings: [], fileType: '1', archivedFileThere: outcome !== undefined,
    ...(outcome ? { outcome } : {}),
    ...fields,
  };
}

const view = (job: JobDetail): JobView => {
  const { warnings: _w, uploadedAt: _u, errorFile: _e, archivedFileThere: _a, ...rest } = job;
  return rest;
};

const fail = (code: BridgeError['code'], message: string, fields?: { path: string; message: string }[]) =>
  new BridgeError({ name: 'BridgeError', code, message, ...(fields ? { fields } : {}) });

function mergePatch(target: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...target };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else if (typeof value === 'object' && !Array.isArray(value) && typeof out[key] === 'object' && out[key] !== null) {
      out[key] = mergePatch(out[key] as Record<string, unknown>, value as Record<string, unknown>);
    } else out[key] = value;
  }
  return out;
}

export function createMemoryBridge(initial: Partial<MemoryState> & { platform?: 'desktop' | 'browser' } = {}): MemoryBridge {
  const state: MemoryState = {
    settings: structuredClone(DEFAULT_SETTINGS),
    credentials: { local: undefined, sandbox: undefined, production: undefined },
    folder: { state: 'stopped' },
    jobs: [],
    batches: [],
    goodSecrets: new Set(['right-secret']),
    ...initial,
  };
  const listeners = new Map<string, Set<Listener>>();
  const calls: MemoryBridge['calls'] = [];
  const overrides = new Map<string, (request: never) => unknown>();

  const status = (profile: ProfileName): CredentialStatus => {
    const stored = state.credentials[profile];
    return { profile, stored: stored !== undefined, source: stored ? 'keychain' : 'none', ...(stored ? { clientId: stored.clientId } : {}) };
  };
  const settingsView = () => ({ settings: state.settings, file: '/home/clerk/.config/payroll-uploader/settings.json' });
  const job = (id: number) => {
    const found = state.jobs.find((j) => j.id === id);
    if (!found) throw fail('not_found', `no file job ${id}`);
    return found;
  };

  const handlers: { [M in BridgeMethodName]?: (request: BridgeRequest<M>) => unknown } = {
    'settings.get': () => settingsView(),
    'settings.patch': (patch) => {
      const merged = mergePatch(state.settings, patch);
      const parsed = settingsSchema.safeParse(merged);
      if (!parsed.success) {
        throw fail('invalid_argument', 'settings are not valid',
          parsed.error.issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message })));
      }
      state.settings = parsed.data;
      return settingsView();
    },
    'profile.switch': ({ profile }) => {
      state.settings = { ...state.settings, activeProfile: profile };
      return settingsView();
    },
    'credentials.set': ({ profile, clientId, clientSecret }) => {
      state.credentials[profile] = { clientId, secret: clientSecret };
      return status(profile);
    },
    'credentials.status': ({ profile }) => status(profile),
    'credentials.delete': ({ profile }) => {
      state.credentials[profile] = undefined;
      return status(profile);
    },
    'credentials.test': ({ profile }) => {
      const stored = state.credentials[profile];
      if (!stored) throw fail('not_configured', `no credentials for ${profile}`);
      return state.goodSecrets.has(stored.secret)
        ? { ok: true, scopes: ['import:write', 'deliveries:read'], ms: 12 }
        : { ok: false, scopes: [], ms: 9, message: 'the service refused the client id or secret (401 invalid_client)' };
    },
    'watch.state': () => state.folder,
    'watch.setFolder': ({ folder }) => {
      if (!folder.startsWith('/')) throw fail('invalid_argument', 'folder: must be an absolute path', [{ path: 'folder', message: 'must be an absolute path' }]);
      state.settings = { ...state.settings, watchedFolder: folder };
      state.folder = { folder, state: state.folder.state === 'stopped' ? 'stopped' : 'watching' };
      return state.folder;
    },
    'watch.browse': () => {
      if (initial.platform !== 'desktop') throw fail('unsupported', 'no folder dialog in the browser');
      return { folder: '/home/clerk/payroll-exports' };
    },
    'watch.start': () => (state.folder = { ...state.folder, state: 'watching' }),
    'watch.pause': () => (state.folder = { ...state.folder, state: 'paused' }),
    'watch.resume': () => (state.folder = { ...state.folder, state: 'watching' }),
    'watch.stop': () => (state.folder = { ...state.folder, state: 'stopped' }),
    'jobs.query': (query) => {
      const q = bridgeMethods['jobs.query'].request.parse(query);
      let items = state.jobs.filter((j) =>
        (q.finished === undefined || j.finished === q.finished)
        && (!q.outcomes || (j.outcome !== undefined && q.outcomes.includes(j.outcome)))
        && (!q.states || q.states.includes(j.state))
        && (!q.fileTypes || q.fileTypes.includes(j.fileType ?? NO_FILE_TYPE))
        && (!q.text || j.name.toLowerCase().includes(q.text.toLowerCase()))
        && (q.foundSince === undefined || j.foundAt >= q.foundSince)
        && (q.foundBefore === undefined || j.foundAt < q.foundBefore));
      const dir = q.sort.dir === 'asc' ? 1 : -1;
      items = items.sort((a, b) => (a[q.sort.by] < b[q.sort.by] ? -dir : a[q.sort.by] > b[q.sort.by] ? dir : 0));
      return { total: items.length, items: items.slice(q.offset, q.offset + q.limit).map(view) };
    },
    'jobs.get': ({ id }) => job(id),
    'jobs.retryNow': ({ id }) => {
      const found = job(id);
      if (found.state !== 'waiting') throw fail('conflict', 'the file is not waiting');
      Object.assign(found, { state: found.resumeState ?? 'found', nextAttemptAt: undefined });
      return view(found);
    },
    'jobs.requeue': ({ id }) => {
      const found = job(id);
      if (found.outcome !== 'rejected' || !found.archivedFileThere) throw fail('conflict', 'only a refused file still in rejected/ can go back in the queue');
      found.archivedFileThere = false;
      const again = makeJob({ name: found.name, state: 'found' });
      state.jobs.push(again);
      return view(again);
    },
    'jobs.reveal': ({ id }) => ({ path: job(id).archivedPath ?? job(id).path, revealed: initial.platform === 'desktop' }),
    'jobs.errorFile': ({ id }) => ({ path: `${job(id).archivedPath ?? job(id).path}.error.txt`, text: job(id).lastError ?? '' }),
    'batches.list': ({ offset = 0, limit = 100 }) => ({ total: state.batches.length, items: state.batches.slice(offset, offset + limit) }),
    // The core keeps no notices here: tests emit theirs as events.
    'notices.list': () => ({ run: 'memory', version: 0, items: [], leftOut: 0 }),
    'notices.dismiss': () => ({ dismissed: 0 }),
    'notices.dismissAll': () => ({ dismissed: 0 }),
  };

  const bridge: MemoryBridge = {
    platform: initial.platform ?? 'browser',
    state,
    calls,
    call<M extends BridgeMethodName>(method: M, request: BridgeRequest<M>): Promise<BridgeResponse<M>> {
      calls.push({ method, request });
      const handler = (overrides.get(method) ?? handlers[method]) as ((r: BridgeRequest<M>) => unknown) | undefined;
      return new Promise((resolve, reject) => {
        // Answers arrive asynchronously, as over IPC or HTTP.
        setTimeout(() => {
          const failed = (error: unknown) => reject(error instanceof Error ? error : new Error(String(error)));
          try {
            if (!handler) throw fail('unsupported', `${method} is not in the test bridge`);
            const answer = handler(request);
            // A held answer (an override's promise) is given once the test lets it go.
            if (answer instanceof Promise) answer.then((held) => resolve(structuredClone(held) as BridgeResponse<M>), failed);
            else resolve(structuredClone(answer) as BridgeResponse<M>);
          } catch (error) {
            failed(error);
          }
        }, 0);
      });
    },
    on(event, listener) {
      const set = listeners.get(event) ?? new Set<Listener>();
      listeners.set(event, set);
      set.add(listener as Listener);
      return () => set.delete(listener as Listener);
    },
    emit(event, payload) {
      for (const listener of listeners.get(event) ?? []) listener(payload);
    },
    override(method, handler) {
      overrides.set(method, handler);
    },
  };
  return bridge;
}

/** A bridge past the first run: the Local environment's credentials saved and a watched folder being watched. */
export function configuredMemoryBridge(): MemoryBridge {
  const bridge = createMemoryBridge({
    credentials: { local: { clientId: 'clerk-app', secret: 'right-secret' }, sandbox: undefined, production: undefined },
    folder: { folder: '/data/exports', state: 'watching' },
  });
  bridge.state.settings = { ...bridge.state.settings, watchedFolder: '/data/exports' };
  return bridge;
}
