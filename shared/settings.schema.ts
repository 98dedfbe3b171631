/** Settings of the desktop app and the headless command (docs/service-decisions.md §9). Pure: no Node APIs. */
import { z } from 'zod';
import type { FileTypeCode } from './files.schema';
import { isLoopbackHost, loopbackSpellingHint } from './loopback';

export const PROFILE_NAMES = ['local', 'sandbox', 'production'] as const;
export type ProfileName = (typeof PROFILE_NAMES)[number];
export const profileNameSchema = z.enum(PROFILE_NAMES);
/** Each environment as the clerk's screens and the core's messages name it. */
export const PROFILE_TITLES: Readonly<Record<ProfileName, string>> = { local: 'Local test server', sandbox: 'Sandbox', production: 'Production' };

/** The local stand-in server's default address. */
export const LOCAL_BASE_URL = 'http://127.0.0.1:8787';

/** True for absolute POSIX, Windows drive or UNC paths: settings are read from any working directory. */
export function isAbsolutePath(value: string): boolean {
  return value.startsWith('/') || /^[A-Za-z]:[\\/]/.test(value) || value.startsWith('\\\\');
}

const HTTPS_REQUIRED = 'https is required (plain http only to this machine: 127.0.0.0/8, localhost or [::1])';

// abort: the refinements below parse the URL again, which throws on what z.url has already refused.
const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL', abort: true });

/** A service base URL: https, or plain http to a loopback host; never with a user name or password in it. */
export const baseUrlSchema = httpUrl
  .refine((url) => new URL(url).protocol === 'https:' || isLoopbackHost(new URL(url).hostname), {
    error: (issue) => {
      const hint = typeof issue.input === 'string' ? loopbackSpellingHint(new URL(issue.input).hostname) : undefined;
      return hint ? `${HTTPS_REQUIRED}; ${hint}` : HTTPS_REQUIRED;
    },
  })
  .refine((url) => new URL(url).username === '' && new URL(url).password === '', {
    error: 'must not contain a user name or password (credentials belong in the keychain)',
  });

export const profileSchema = z.strictObject({
  baseUrl: baseUrlSchema.optional(),
  clientId: z.string().min(1, 'must not be empty').max(200, 'must be at most 200 characters long').optional(),
});
export type Profile = z.infer<typeof profileSchema>;

const FILE_TYPE_CODES_IN_RULES = ['1', '2'] as const satisfies readonly FileTypeCode[];

/** A file-name rule: a file whose name contains `contains` (any case) has file type `fileType`. */
export const fileTypeRuleSchema = z.strictObject({
  contains: z.string().min(1, 'must not be empty'),
  fileType: z.enum(FILE_TYPE_CODES_IN_RULES),
});
export type FileTypeRule = z.infer<typeof fileTypeRuleSchema>;

/** How row problems found before an upload are handled; whole-file problems always refuse the file. */
export const PREFLIGHT_MODES = ['warn', 'block', 'off'] as const;
export type PreflightMode = (typeof PREFLIGHT_MODES)[number];
/** The row-check setting as the Settings screen labels it, and as the core's messages name it to the clerk. */
export const PREFLIGHT_TITLE = 'Checking rows before upload';

const ms = (min: number, max: number) => z.number().int().min(min).max(max);

export const settingsSchema = z.strictObject({
  profiles: z
    .strictObject({
      local: profileSchema.prefault({ baseUrl: LOCAL_BASE_URL }),
      sandbox: profileSchema.prefault({}),
      production: profileSchema.prefault({}),
    })
    .prefault({}),
  activeProfile: profileNameSchema.default('local'),
  watchedFolder: z.string().refine(isAbsolutePath, 'must be an absolute path').optional(),
  fileTypeRules: z.array(fileTypeRuleSchema).max(100).default((): FileTypeRule[] => [
    { contains: 'census', fileType: '1' },
    { contains: 'receipt', fileType: '2' },
  ]),
  stabilityMs: ms(100, 600_000).default(2000),
  sweepIntervalMs: ms(1000, 86_400_000).default(60_000),
  usePolling: z.boolean().default(false),
  pollIntervalMs: ms(100, 600_000).default(1000),
  /**
   * Where uploaded/<date>/, rejected/ and duplicates/ are made. Files are always moved there (never deleted);
   * `dir` absent means inside the watched folder.
   */
  archive: z
    .strictObject({ dir: z.string().refine(isAbsolutePath, 'must be an absolute path').optional() })
    .prefault({}),
  preflight: z.enum(PREFLIGHT_MODES).default('warn'),
  concurrency: z.number().int().min(1).max(8).default(2),
  /** Proxy for calls to the service; corporate proxies are often plain http, so no https rule here. */
  proxy: httpUrl.optional(),
  /** Desktop app: open at login, hidden in the tray, and keep watching (Windows, macOS, Linux with XDG autostart). */
  startAtLogin: z.boolean().optional(),
});

export type Settings = z.output<typeof settingsSchema>;
/** What a settings file may hold: every key optional, defaults fill the rest. */
export type SettingsInput = z.input<typeof settingsSchema>;

type DeepPartial<T> = T extends readonly unknown[]
  ? T
  : T extends object
    ? { [K in keyof T]?: DeepPartial<T[K]> | undefined }
    : T;
/** A change to settings: objects merge key by key, arrays replace, `undefined` removes a key. */
export type SettingsPatch = DeepPartial<Settings>;

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

export const DEFAULT_SETTINGS: Settings = deepFreeze(settingsSchema.parse({}));

/** The profile's base URL, or undefined when none is set (sandbox and production have no default). */
export function baseUrlOf(settings: Settings, profile: ProfileName): string | undefined {
  return settings.profiles[profile].baseUrl;
}
