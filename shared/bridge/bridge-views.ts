/**
 * What the screens see of the core: zod schemas of the views the bridge answers with. The core maps its own records
 * (journal rows, settings, keychain answers) to these; the renderer never sees the core's types. Times are epoch
 * milliseconds unless named otherwise.
 */
import { z } from 'zod';
import { deliveryAttemptSchema } from '../deliveries.schema';
import { FILE_TYPE_CODES, NO_FILE_TYPE, type FileTypeCode } from '../files.schema';
import { recordErrorSchema } from '../imports.schema';
import { RECORD_KINDS } from '../records.schema';
import { PROFILE_NAMES, settingsSchema, type Settings } from '../settings.schema';

/** States of a file job; `waiting` means waiting to retry a step. uploaded, rejected and duplicate are outcomes. */
export const JOB_STATES = [
  'found', 'hashing', 'validating', 'granting', 'uploading', 'uploaded', 'rejected', 'duplicate', 'waiting',
] as const;
export type JobStateView = (typeof JOB_STATES)[number];
export const jobStateSchema = z.enum(JOB_STATES);

export const JOB_OUTCOMES = ['uploaded', 'rejected', 'duplicate'] as const;
export type JobOutcome = (typeof JOB_OUTCOMES)[number];
export const jobOutcomeSchema = z.enum(JOB_OUTCOMES);

export const fileTypeCodeSchema = z.enum(FILE_TYPE_CODES as [FileTypeCode, ...FileTypeCode[]]);

/**
 * A service as the screens name it: an environment (profile) and, unless it is the app's own built-in test server
 * (`builtIn`, which may listen at another address next time, so naming it would tell the clerk nothing), its base URL
 * (`address`) and the client (the employer's account at the service) a job or batch goes as (`clientId`).
 */
export const serviceViewSchema = z.object({
  profile: z.enum(PROFILE_NAMES), builtIn: z.boolean(), address: z.string().optional(), clientId: z.string().optional(),
});
export type ServiceView = z.infer<typeof serviceViewSchema>;

/**
 * What the service made of an import (a file or a batch) once it processed it: `PROCESSED` with the records (rows)
 * accepted and refused, or `REJECTED` as a whole with `reason`. Known only where the service answers it: the local
 * test server (the Local environment); the production service tells it on the client's webhook instead, so there it
 * is never known. Absent while not known.
 */
export const importResultViewSchema = z.object({
  status: z.enum(['PROCESSED', 'REJECTED']),
  acceptedRecords: z.number().int(),
  rejectedRecords: z.number().int(),
  /** How many reasons the service gave (one per refused record and field); the details hold the first 100. */
  errorCount: z.number().int(),
  reason: z.string().optional(),
});
export type ImportResultView = z.infer<typeof importResultViewSchema>;

/** One watched file in the queue or in its history. */
export const jobViewSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  /** Where the file was found. */
  path: z.string(),
  size: z.number(),
  state: jobStateSchema,
  /** For `waiting`: the step it waits to retry. */
  resumeState: z.enum(['found', 'granting', 'uploading']).optional(),
  /** Set once the job has an outcome (uploaded, rejected, duplicate). */
  outcome: jobOutcomeSchema.optional(),
  /** The outcome is final and the file was filed away (or had disappeared). */
  finished: z.boolean(),
  foundAt: z.number(),
  /** The day the file was found, YYYY-MM-DD (local time). */
  foundDay: z.string(),
  stateChangedAt: z.number(),
  nextAttemptAt: z.number().optional(),
  attempts: z.number().int(),
  lastError: z.string().optional(),
  fileType: fileTypeCodeSchema.optional(),
  referenceDate: z.string().optional(),
  md5: z.string().optional(),
  warningCount: z.number().int(),
  importId: z.string().optional(),
  archivedPath: z.string().optional(),
  finishedAt: z.number().optional(),
  /**
   * The service and client the file was queued for: the only one it is sent to, so the one that holds it once
   * uploaded, found it a duplicate or was to get it when it was refused. Absent when the journal does not know it (a
   * job journaled by an older version that never reached a service).
   */
  service: serviceViewSchema.optional(),
  /**
   * Only for an unfinished job of another service than the one uploads go to now: it is sent only to the service it
   * was queued for, and waits until that is the active one again. `builtIn`: the app's own local test server (which
   * may listen at another address next time); otherwise `address` is that service's base URL. `clientId`: the client
   * (the account at the service) it was queued as, and is sent as only; it waits too when only the client id changed.
   */
  waitsFor: serviceViewSchema.optional(),
  /** What the service made of the uploaded file, when it said (importResultViewSchema). */
  importResult: importResultViewSchema.optional(),
});
export type JobView = z.infer<typeof jobViewSchema>;

/** One job in full: its warnings (CSV line numbers) and where its error report is. */
export const jobDetailSchema = jobViewSchema.extend({
  /** Row problems found before the upload (at most the first 100; warningCount says how many there were). */
  warnings: z.array(recordErrorSchema),
  uploadedAt: z.number().optional(),
  /** The `.error.txt` written beside a refused file, when there is one. */
  errorFile: z.string().optional(),
  /**
   * Whether the filed-away file is still at `archivedPath` (false once it was put back in the queue, or moved or
   * deleted by hand): only then can a refused file be put back.
   */
  archivedFileThere: z.boolean(),
  /** With `importResult`: the service's reasons for the rows it refused (line numbers), the first 100. */
  importErrors: z.array(recordErrorSchema).optional(),
});
export type JobDetail = z.infer<typeof jobDetailSchema>;

export const JOB_SORT_KEYS = ['foundAt', 'name', 'state', 'size'] as const;
export const JOB_QUERY_MAX_LIMIT = 500;
const instant = z.number().int('must be a whole number of milliseconds since 1970 UTC');

/** A window of jobs: filters combine with AND; the values inside one filter with OR. */
export const jobQuerySchema = z.strictObject({
  states: z.array(jobStateSchema).max(JOB_STATES.length).optional(),
  /** Jobs with one of these outcomes; combined with `states` as one list of states. */
  outcomes: z.array(jobOutcomeSchema).max(JOB_OUTCOMES.length).optional(),
  /** Jobs of one of these file types; `none`: files whose type was never read (refused before it was known). */
  fileTypes: z.array(z.union([fileTypeCodeSchema, z.literal(NO_FILE_TYPE)])).max(10).optional(),
  /**
   * Found at or after this instant (ms since 1970 UTC). The days a screen filters by are the clerk's, where the screen
   * is: it sends the instant the first day starts there, not a date the core would read in its own zone.
   */
  foundSince: instant.optional(),
  /** Found before this instant (ms since 1970 UTC): where the clerk is, the start of the day after the last one chosen. */
  foundBefore: instant.optional(),
  /** Part of the file name, any case. */
  text: z.string().max(200).optional(),
  /** true: only filed-away jobs; false: only jobs still in the queue. */
  finished: z.boolean().optional(),
  sort: z.strictObject({ by: z.enum(JOB_SORT_KEYS), dir: z.enum(['asc', 'desc']) }).default({ by: 'foundAt', dir: 'desc' }),
  offset: z.number().int().min(0).default(0),
  limit: z.number().int().min(1).max(JOB_QUERY_MAX_LIMIT).default(100),
}).refine((q) => q.foundSince === undefined || q.foundBefore === undefined || q.foundSince < q.foundBefore,
  { path: ['foundBefore'], error: 'must be after foundSince' });
export type JobQuery = z.input<typeof jobQuerySchema>;

export const jobWindowSchema = z.object({ total: z.number().int(), items: z.array(jobViewSchema) });
export type JobWindow = z.infer<typeof jobWindowSchema>;

/** Progress of reading (hashing) or uploading one file. */
export const jobProgressSchema = z.object({
  id: z.number().int(),
  phase: z.enum(['hashing', 'uploading']),
  bytes: z.number(),
  total: z.number(),
  bytesPerSecond: z.number().optional(),
});
export type JobProgressView = z.infer<typeof jobProgressSchema>;

/** A problem of one record of a batch, found by the local check or by the service (400/422). */
export const batchProblemSchema = z.object({
  /** 0-based index of the record; absent for the batch as a whole. */
  index: z.number().int().optional(),
  field: z.string().optional(),
  message: z.string(),
  source: z.enum(['local', 'service']),
});
export type BatchProblem = z.infer<typeof batchProblemSchema>;

export const BATCH_STATES = ['sending', 'sent', 'failed', 'unknown'] as const;
/** A manual JSON batch (the records themselves are not kept: they hold personal data). */
export const batchViewSchema = z.object({
  id: z.number().int(),
  kind: z.enum(RECORD_KINDS),
  records: z.number().int(),
  /**
   * failed: the service surely does not hold it; unknown: it may (the app stopped mid-send, or no answer came after
   * the records went out), the outcome was never seen.
   */
  state: z.enum(BATCH_STATES),
  createdAt: z.number(),
  stateChangedAt: z.number(),
  importId: z.string().optional(),
  receivedAt: z.string().optional(),
  error: z.string().optional(),
  /** The service and client the batch was sent to; absent for a batch journaled before batches kept it. */
  service: serviceViewSchema.optional(),
  /** A refused batch's `error` as the service's problems, one per record and field, for History to word as the form does. */
  problems: z.array(batchProblemSchema).optional(),
  /** What the service made of the sent batch, when it said (importResultViewSchema). */
  importResult: importResultViewSchema.optional(),
  /** With `importResult`: the service's reasons for the records it refused (0-based `index`), the first 100. */
  importErrors: z.array(recordErrorSchema).optional(),
});
export type BatchView = z.infer<typeof batchViewSchema>;

export const batchSendResultSchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), importId: z.string(), records: z.number().int(), receivedAt: z.string(), batch: batchViewSchema }),
  z.object({
    ok: z.literal(false),
    problems: z.array(batchProblemSchema),
    /** Absent when nothing was sent (the local check refused the records). */
    batch: batchViewSchema.optional(),
  }),
]);
export type BatchSendResult = z.infer<typeof batchSendResultSchema>;

export const profileNameViewSchema = z.enum(PROFILE_NAMES);

/** The settings as stored (defaults filled in) and the file they live in. */
export const settingsViewSchema = z.object({
  settings: z.custom<Settings>((value) => settingsSchema.safeParse(value).success, 'not valid settings'),
  file: z.string(),
});
export type SettingsView = z.infer<typeof settingsViewSchema>;

type PatchOf<T> = T extends readonly unknown[]
  ? T
  : T extends object
    ? { [K in keyof T]?: PatchOf<T[K]> | null }
    : T;
/** A change to settings: objects merge key by key, arrays replace, `null` removes a key (JSON has no undefined). */
export type SettingsPatchView = PatchOf<Settings>;
const isPlainObject = (value: unknown): boolean =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
/** The patch's shape is checked here; its values by the settings schema after the merge (errors per field). */
export const settingsPatchSchema = z.custom<SettingsPatchView>(isPlainObject, 'a settings change must be an object');

export const CREDENTIAL_SOURCES = ['keychain', 'environment', 'none'] as const;
/** Whether a profile has credentials; the secret itself is never answered. */
export const credentialStatusSchema = z.object({
  profile: profileNameViewSchema,
  stored: z.boolean(),
  source: z.enum(CREDENTIAL_SOURCES),
  clientId: z.string().optional(),
  /** Set when the keychain cannot be used, with the reason and the fix. */
  keychainProblem: z.string().optional(),
});
export type CredentialStatus = z.infer<typeof credentialStatusSchema>;

export const credentialTestSchema = z.object({
  ok: z.boolean(),
  scopes: z.array(z.string()),
  /** How long getting a token took. */
  ms: z.number(),
  /** Why not, in words (the service's answer), when ok is false. */
  message: z.string().optional(),
});
export type CredentialTest = z.infer<typeof credentialTestSchema>;

/** `missing`: watching, but the folder is not there; `unreadable`: watching, but this user may not list the folder. */
export const FOLDER_STATES = ['stopped', 'watching', 'paused', 'missing', 'unreadable'] as const;
/**
 * Why the active environment cannot take files: it has no service address (Base URL), or it names the test server
 * built into the app, which is stopped.
 */
export const NO_SERVICE_REASONS = ['noAddress', 'builtInServerStopped'] as const;
/** What holds every file until the clerk acts (FolderState.held). */
export const HELD_REASONS = ['credentials', 'scope'] as const;
export type HeldReason = (typeof HELD_REASONS)[number];
export const folderStateSchema = z.object({
  folder: z.string().optional(),
  state: z.enum(FOLDER_STATES),
  /**
   * Set while the active environment cannot take files, whatever the state: nothing in the folder is picked up, a
   * Start watching or Resume fails, and a watch stopped for it starts again by itself once it can. Said by the core,
   * which alone knows where uploads go, so the screens name the reason rather than a bare "Not watching".
   */
  noService: z.object({ profile: profileNameViewSchema, reason: z.enum(NO_SERVICE_REASONS) }).optional(),
  /**
   * While watching: how many files found in the folder could not be taken up (claimed into `.processing/`, or
   * journaled) and wait there, as a notice says why. Absent when none waits. They are not in the queue (no job), so
   * without it an empty queue would read as every file dealt with.
   */
  untaken: z.number().int().min(1).optional(),
  /**
   * Set while every file is held until the clerk (or the service provider) acts, so a new file saved in the folder is
   * checked and then waits too: `credentials`, the service refuses the client ID and secret (or none are set);
   * `scope`, the client may not upload files. Said by the core's upload queue, which holds the files: gone once the
   * service grants an upload address again (the new folder state says so), not when the clerk dismisses the notice
   * that told of it.
   */
  held: z.enum(HELD_REASONS).optional(),
});
export type FolderState = z.infer<typeof folderStateSchema>;

export const localServerStateSchema = z.object({
  running: z.boolean(),
  url: z.string().optional(),
  port: z.number().int().optional(),
  /** The app's own client of the local server (its secret is in the keychain). */
  clientId: z.string().optional(),
  webhookUrl: z.string().optional(),
});
export type LocalServerState = z.infer<typeof localServerStateSchema>;

export const webhookViewSchema = z.object({
  url: z.string().nullable(),
  secretSet: z.boolean(),
  /** Only in the answer of the set that generated it. */
  secret: z.string().optional(),
  /** Only when the server will not send to the registered address: why (each attempt then fails at once). */
  problem: z.string().optional(),
});
export type WebhookView = z.infer<typeof webhookViewSchema>;

export const requestLogEntryViewSchema = z.object({
  id: z.number().int(),
  /** ISO 8601 UTC. */
  at: z.string(),
  method: z.string(),
  path: z.string(),
  /** 0 when fault injection dropped the connection. */
  status: z.number().int(),
  ms: z.number(),
  traceId: z.string().optional(),
});
export type RequestLogEntryView = z.infer<typeof requestLogEntryViewSchema>;

export const faultRuleViewSchema = z.strictObject({
  pathPrefix: z.string().regex(/^\//, 'must start with /').max(2048),
  latencyMs: z.number().int().min(0).max(60_000).optional(),
  errorRate: z.number().min(0).max(1).optional(),
  errorStatus: z.union([z.literal(500), z.literal(503)]).optional(),
  dropRate: z.number().min(0).max(1).optional(),
  /** How long an import a matching request creates stays QUEUED (docs/local-server.md, Fault injection). */
  processingDelayMs: z.number().int().min(0).max(600_000).optional(),
});
export type FaultRuleView = z.infer<typeof faultRuleViewSchema>;

export { deliveryAttemptSchema };

/**
 * What ends a problem a notice tells of, when the notice goes by itself (or is dismissed before):
 * - `watching`: the watch stopped (no usable service); over once the folder is watched again;
 * - `scope-given`: files are held because the client lacks the scope to upload files; over once the service grants
 *   an upload address;
 * - `journal-written`: new files cannot be taken up because the upload journal cannot be written (a full disk);
 *   over once a file is journaled again;
 * - `queue-runs`: the upload queue cannot work at all and tries again on its own; over once a pass of it works;
 * - `files-claimed`: new files cannot be claimed in the watched folder (it cannot be written, a file named
 *   .processing is in the way); over once a file is claimed again.
 * - `queue-opened`: files wait to be uploaded to another service than the one uploads go to; over once the upload
 *   queue is opened again (for a service chosen in Settings), which then says which files still wait elsewhere.
 * - `credentials-accepted`: files are held because the service does not accept the client ID and secret (a secret
 *   changed at the service), or none are set; over once the service grants an upload address again.
 */
export const NOTICE_ENDS = [
  'watching', 'scope-given', 'journal-written', 'queue-runs', 'files-claimed', 'queue-opened', 'credentials-accepted',
] as const;
export type NoticeEnd = (typeof NOTICE_ENDS)[number];

export const noticeSchema = z.object({
  level: z.enum(['info', 'warning', 'error']),
  message: z.string(),
  jobId: z.number().int().optional(),
  /**
   * With `jobId`: where that file was found (the job's `path`). The notice is over once a job for the same path is
   * found again (the file put back in the queue, from any window, or a fixed copy saved into the folder).
   */
  path: z.string().optional(),
  /** What ends the problem the notice tells of, so the notice goes by itself then (NOTICE_ENDS). */
  until: z.enum(NOTICE_ENDS).optional(),
  /**
   * The core's number for it, which the clerk's dismissal names (notices.dismiss). The core numbers every change of
   * the notices it keeps, one after the other: a new notice takes the next number (notices.list's `version`). The
   * desktop shell's own notices (the engine stopped) have none: only the window that got them holds them.
   */
  id: z.number().int().min(1).optional(),
  /** The run of the engine that numbered it: a restarted engine numbers from 1 again and keeps none of the old ones. */
  run: z.string().optional(),
  /** When the core said it. */
  at: z.number().optional(),
});
export type Notice = z.infer<typeof noticeSchema>;

/** A notice the core keeps (notices.list): numbered, with its run and time. */
export const keptNoticeSchema = noticeSchema.required({ id: true, run: true, at: true });
export type KeptNotice = z.infer<typeof keptNoticeSchema>;

/** The notices the core keeps until they are dismissed or over: the newest first, at most NOTICES_KEPT of them. */
export const noticeListSchema = z.object({
  run: z.string(),
  /** The number of the last change of the list: later changes come as events numbered from version + 1 on. */
  version: z.number().int().min(0),
  items: z.array(keptNoticeSchema),
  /** How many older notices were left out to keep the newest (none once every notice is dismissed). */
  leftOut: z.number().int().min(0),
});
export type NoticeList = z.infer<typeof noticeListSchema>;
export const NOTICES_KEPT = 100;

/** Notices the core no longer keeps: dismissed (in any window), over, or left out for newer ones. */
export const noticesGoneSchema = z.object({
  run: z.string(),
  /** This change's number (see noticeListSchema's `version`). */
  version: z.number().int().min(1),
  ids: z.array(z.number().int().min(1)),
  /** How many older notices are left out now. */
  leftOut: z.number().int().min(0),
});
export type NoticesGone = z.infer<typeof noticesGoneSchema>;
