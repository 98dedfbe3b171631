/**
 * The bridge contract: the whole surface the renderer may use, as one typed map of methods (a request schema and a
 * response schema each) and events (a payload schema each). The Electron preload and the browser-mode HTTP bridge both
 * implement BridgeApi; the handlers validate every request with its schema. Pure zod: no Node, DOM or Electron.
 */
import { z } from 'zod';
import { LIMITS } from '../limits';
import { RECORD_KINDS } from '../records.schema';
import {
  batchSendResultSchema, batchViewSchema, credentialStatusSchema, credentialTestSchema, deliveryAttemptSchema,
  faultRuleViewSchema, folderStateSchema, jobDetailSchema, jobProgressSchema, jobQuerySchema, jobViewSchema,
  jobWindowSchema, localServerStateSchema, noticeListSchema, noticeSchema, noticesGoneSchema, profileNameViewSchema, requestLogEntryViewSchema,
  settingsPatchSchema, settingsViewSchema, webhookViewSchema,
} from './bridge-views';

const none = z.strictObject({});
const byId = z.strictObject({ id: z.number().int().min(1) });
const byProfile = z.strictObject({ profile: profileNameViewSchema });
const page = (max: number) => z.strictObject({
  offset: z.number().int().min(0).default(0),
  limit: z.number().int().min(1).max(max).default(Math.min(100, max)),
});

/** A bound before the records are checked one by one; the service's own limit is its 5 MB body. */
export const BATCH_MAX_RECORDS = 50_000;

type MethodSpec = { request: z.ZodType; response: z.ZodType };

export const bridgeMethods = {
  'settings.get': { request: none, response: settingsViewSchema },
  /** Errors per field (paths of the settings, `profiles.sandbox.baseUrl`); nothing is saved when one is wrong. */
  'settings.patch': { request: settingsPatchSchema, response: settingsViewSchema },
  'profile.switch': { request: z.strictObject({ profile: profileNameViewSchema }), response: settingsViewSchema },

  /** The secret is write-only: no method ever answers it. */
  'credentials.set': {
    request: z.strictObject({
      profile: profileNameViewSchema,
      clientId: z.string().trim().min(1, 'must not be empty').max(200),
      clientSecret: z.string().min(1, 'must not be empty').max(4096),
    }),
    response: credentialStatusSchema,
  },
  'credentials.status': { request: byProfile, response: credentialStatusSchema },
  'credentials.delete': { request: byProfile, response: credentialStatusSchema },
  /** Gets a token with the profile's credentials: ok with the granted scopes, or the service's answer in words. */
  'credentials.test': { request: byProfile, response: credentialTestSchema },

  'watch.state': { request: none, response: folderStateSchema },
  /** A typed path (absolute); saved to settings, and watched at once when watching was on. */
  'watch.setFolder': { request: z.strictObject({ folder: z.string().min(1, 'must not be empty').max(4096) }), response: folderStateSchema },
  /** Desktop: the native folder dialog (null when cancelled). Browser mode: error code `unsupported`. */
  'watch.browse': { request: none, response: z.object({ folder: z.string().nullable() }) },
  'watch.start': { request: none, response: folderStateSchema },
  'watch.pause': { request: none, response: folderStateSchema },
  'watch.resume': { request: none, response: folderStateSchema },
  'watch.stop': { request: none, response: folderStateSchema },

  'jobs.query': { request: jobQuerySchema, response: jobWindowSchema },
  'jobs.get': { request: byId, response: jobDetailSchema },
  /** A job waiting on the network tries again now (error `conflict` when it is not waiting). */
  'jobs.retryNow': { request: byId, response: jobViewSchema },
  /** A refused file the clerk fixed goes back from rejected/ into the watched folder and the queue. */
  'jobs.requeue': { request: byId, response: jobViewSchema },
  /** Desktop: shows the file in the file manager. Browser mode: answers its path with revealed false. */
  'jobs.reveal': { request: byId, response: z.object({ path: z.string(), revealed: z.boolean() }) },
  /** The `.error.txt` beside a refused file (error `not_found` when there is none). */
  'jobs.errorFile': { request: byId, response: z.object({ path: z.string(), text: z.string() }) },

  /** Records are checked with the shared schema first; every problem names its record index and field. */
  'batches.send': {
    request: z.strictObject({ kind: z.enum(RECORD_KINDS), records: z.array(z.unknown()).min(1, 'must hold at least one record').max(BATCH_MAX_RECORDS) }),
    response: batchSendResultSchema,
  },
  'batches.list': { request: page(1000), response: z.object({ total: z.number().int(), items: z.array(batchViewSchema) }) },

  /** The service's delivery audit (its own filters). */
  'deliveries.list': {
    request: z.strictObject({
      status: z.union([z.literal(1), z.literal(2), z.literal(3)]).optional(),
      maxRetries: z.number().int().min(0).max(LIMITS.deliveryRetries).optional(),
      limit: z.number().int().min(1).max(LIMITS.deliveriesMaxLimit).optional(),
    }),
    response: z.object({ items: z.array(deliveryAttemptSchema) }),
  },
  'deliveries.get': { request: byId, response: deliveryAttemptSchema },
  /** Local server only (error `unsupported` for a remote service): sends the event again, answers the new attempt. */
  'deliveries.redeliver': { request: byId, response: deliveryAttemptSchema },

  /**
   * The notices the core keeps for the clerk until they are dismissed or over, whether a window was open when they
   * were said or not (kept in the engine's memory: a restarted engine starts with none). The screens ask at start
   * and whenever the event stream comes back.
   */
  'notices.list': { request: none, response: noticeListSchema },
  /**
   * Takes one notice away, in every window (the `noticesGone` event). One already gone, or numbered by an engine run
   * that has ended (`run`), is left alone: `dismissed` 0.
   */
  'notices.dismiss': {
    request: z.strictObject({ run: z.string().min(1).max(100), id: z.number().int().min(1) }),
    response: z.object({ dismissed: z.number().int().min(0) }),
  },
  /** Takes away every notice numbered up to `upTo` (the list as the clerk saw it; a later one stays), and the count left out. */
  'notices.dismissAll': {
    request: z.strictObject({ run: z.string().min(1).max(100), upTo: z.number().int().min(0) }),
    response: z.object({ dismissed: z.number().int().min(0) }),
  },

  'localServer.state': { request: none, response: localServerStateSchema },
  /** Starts the embedded server on 127.0.0.1 (a free port when none is given) and points the Local profile at it. */
  'localServer.start': { request: z.strictObject({ port: z.number().int().min(0).max(65535).optional() }), response: localServerStateSchema },
  'localServer.stop': { request: none, response: localServerStateSchema },
  /** The app's own client of the running local server, for copy buttons (error `conflict` when it is not running). */
  'localServer.credentials': { request: none, response: z.object({ clientId: z.string(), clientSecret: z.string() }) },
  'localServer.webhook.get': { request: none, response: webhookViewSchema },
  /** url null removes the registration; a missing secret is generated and answered once. */
  'localServer.webhook.set': {
    request: z.strictObject({ url: z.url({ protocol: /^https?$/ }).max(2048).nullable(), secret: z.string().max(200).optional() }),
    response: webhookViewSchema,
  },
  'localServer.requestLog': {
    request: z.strictObject({ limit: z.number().int().min(1).max(1000).optional() }),
    response: z.object({ items: z.array(requestLogEntryViewSchema) }),
  },
  'localServer.faults.list': { request: none, response: z.object({ rules: z.array(faultRuleViewSchema) }) },
  'localServer.faults.set': {
    request: z.strictObject({ rules: z.array(faultRuleViewSchema).max(100) }),
    response: z.object({ rules: z.array(faultRuleViewSchema) }),
  },
  'localServer.faults.clear': { request: none, response: z.object({ rules: z.array(faultRuleViewSchema) }) },
} as const satisfies Record<string, MethodSpec>;

export const bridgeEvents = {
  /** A job changed state. */
  job: jobViewSchema,
  /** Coalesced: at most about 10 a second per job. */
  progress: jobProgressSchema,
  /** A job finished: its outcome is final and its file filed away. */
  result: jobViewSchema,
  batch: batchViewSchema,
  folder: folderStateSchema,
  localServer: localServerStateSchema,
  /** Something the clerk should know (a refused file, a failure of the engine), kept by the core until dismissed or over. */
  notice: noticeSchema,
  /** Notices the core no longer keeps (dismissed in a window, over, or left out for newer ones): every window drops them. */
  noticesGone: noticesGoneSchema,
} as const satisfies Record<string, z.ZodType>;

export type BridgeMethodName = keyof typeof bridgeMethods;
export type BridgeRequest<M extends BridgeMethodName> = z.input<(typeof bridgeMethods)[M]['request']>;
export type BridgeResponse<M extends BridgeMethodName> = z.output<(typeof bridgeMethods)[M]['response']>;
export type BridgeEventName = keyof typeof bridgeEvents;
export type BridgeEvent<E extends BridgeEventName> = z.output<(typeof bridgeEvents)[E]>;
/** One event as the transports carry it. */
export type BridgeEventMessage = { [E in BridgeEventName]: { event: E; payload: BridgeEvent<E> } }[BridgeEventName];

export const BRIDGE_METHOD_NAMES = Object.keys(bridgeMethods) as BridgeMethodName[];
export const BRIDGE_EVENT_NAMES = Object.keys(bridgeEvents) as BridgeEventName[];

export const isBridgeMethod = (name: string): name is BridgeMethodName => Object.hasOwn(bridgeMethods, name);

/** The whole surface the renderer may use: window.payroll (preload) or the HTTP bridge (browser mode). */
export type BridgeApi = {
  readonly platform: 'desktop' | 'browser';
  /** Rejects with a BridgeError carrying the envelope. */
  call<M extends BridgeMethodName>(method: M, request: BridgeRequest<M>): Promise<BridgeResponse<M>>;
  /** Returns the unsubscribe function. */
  on<E extends BridgeEventName>(event: E, listener: (payload: BridgeEvent<E>) => void): () => void;
};

/** IPC channels of the Electron transport. */
export const BRIDGE_IPC = { call: 'payroll:call', event: 'payroll:event' } as const;
/** Paths of the browser-mode transport: POST `${method}` under `methods`, Server-Sent Events at `events`. */
export const BRIDGE_HTTP = {
  methods: '/bridge/',
  events: '/bridge/events',
  /**
   * The page's bridge key (given once, at sign-in): sent in this header with every method, and as this query parameter
   * on the event stream (EventSource sends no headers of its own). Kept by the page in its origin's storage under
   * `keyStorage`.
   */
  keyHeader: 'x-payroll-bridge-key',
  keyParam: 'key',
  keyStorage: 'payroll-bridge-key',
} as const;
/** What an IPC reply or an HTTP answer carries. */
export type BridgeReply<M extends BridgeMethodName> =
  | { ok: true; result: BridgeResponse<M> }
  | { ok: false; error: import('./bridge-error').BridgeErrorEnvelope };
