/**
 * The session a headless command works in: the same session service the desktop app uses, with this run's `--env`,
 * `--base-url` and folder laid over the saved settings (not saved), and for `--env local` (or a Local profile that
 * names the app's own server) without a base URL the embedded local server started through the session's own call.
 */
import { createSession, pointsAtAppServer, type Session } from '../core/session';
import type { RetryPolicy } from '../core/queue';
import { baseUrlSchema } from '../../shared/settings.schema';
import { overlaySettings, requireBaseUrl } from '../core/settings';
import type { Logger } from '../lib/logger';
import { profileOf, type CliContext } from './cli-context';
import { UsageError } from './usage-error';

export type CliSessionFlags = {
  env?: string;
  baseUrl?: string;
  /** The folder to watch this run (absolute). */
  folder?: string;
  /** `--env local` (or a Local profile naming the app's own server) without `--base-url` starts the embedded local server. */
  embedLocal?: boolean;
  retry?: Partial<RetryPolicy>;
  /** false: manual batches only (no file jobs, no data-folder lock). */
  files?: boolean;
};

/** `PAYROLL_CLAIM_TIMEOUT_S`: after how long a silent uploader's claims in a shared folder are taken over (default 120). */
function claimTimeout(env: NodeJS.ProcessEnv = process.env): { claimTimeoutMs?: number } {
  const raw = env.PAYROLL_CLAIM_TIMEOUT_S;
  if (raw === undefined || raw === '') return {};
  if (!/^\d+$/.test(raw) || Number(raw) < 1) throw new Error(`PAYROLL_CLAIM_TIMEOUT_S must be a whole number of seconds, not "${raw}"`);
  return { claimTimeoutMs: Number(raw) * 1000 };
}

/**
 * --base-url checked as a saved base URL is, before anything opens: a bad one is a wrong command line (exit code 2),
 * said with the flag. The value is not repeated: it may hold a password.
 */
function checkBaseUrlFlag(value: string): void {
  const result = baseUrlSchema.safeParse(value);
  if (!result.success) throw new UsageError(`--base-url: ${result.error.issues.map((issue) => issue.message).join('; ')}`);
}

export async function openCliSession(
  ctx: CliContext,
  flags: CliSessionFlags,
  logger: Logger,
  /** Runs before anything starts, so output attached here also shows what starting says. */
  attach?: (session: Session) => void,
): Promise<Session> {
  const profile = profileOf(flags.env, ctx.settings);
  if (flags.baseUrl !== undefined) checkBaseUrlFlag(flags.baseUrl);
  const settings = overlaySettings(ctx.settings, {
    profile,
    ...(flags.baseUrl !== undefined ? { baseUrl: flags.baseUrl } : {}),
    ...(flags.folder !== undefined ? { watchedFolder: flags.folder } : {}),
  });
  // The embedded server starts for `--env local`, and for a Local profile that names it (as an earlier run or the
  // desktop app left it); a Local profile of the user's own (the default 127.0.0.1:8787, say, where `npm run server`
  // listens) is used as it is.
  const embed = flags.embedLocal === true && profile === 'local' && flags.baseUrl === undefined
    && (flags.env === 'local' || pointsAtAppServer(ctx.settings.get()));
  // Said now, with the settings file's path, rather than by the first upload.
  if (!embed) requireBaseUrl(settings.get(), profile, undefined, ctx.settings.path);
  const session = createSession({
    dataDir: ctx.dataDir, settings, secrets: ctx.secrets, logger,
    // A run that does not start the embedded server takes the Local base URL for what it says: the server there may
    // be the app's own, run by the desktop app or a `watch`, or one given with --base-url.
    ...(embed ? {} : { appServer: false }),
    ...(flags.retry ? { retry: flags.retry } : {}),
    ...(flags.files === false ? { files: false } : {}),
    ...claimTimeout(),
  });
  try {
    attach?.(session);
    if (embed) await session.startLocalServer();
    return session;
  } catch (error) {
    await session.close();
    throw error;
  }
}
