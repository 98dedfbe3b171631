/** Opens the app object for a command: profile, base URL (or the embedded local server), credentials. */
import type { PayrollApp } from '../core/app';
import { createPayrollApp } from '../core/app';
import type { RetryPolicy } from '../core/queue';
import type { Logger } from '../lib/logger';
import type { CliContext } from './cli-context';
import { profileOf } from './cli-context';
import type { EmbeddedServer } from './embedded-server';
import { startEmbeddedServer } from './embedded-server';

export type AppSession = { app: PayrollApp; embedded: boolean; close(): Promise<void> };

/** How the journal names the local server that `watch --env local` runs inside the uploader. */
export const EMBEDDED_SERVICE = 'embedded://local-server';

/** `PAYROLL_CLAIM_TIMEOUT_S`: after how long a silent uploader's claims in a shared folder are taken over (default 120). */
function claimTimeout(env: NodeJS.ProcessEnv = process.env): { claimTimeoutMs?: number } {
  const raw = env.PAYROLL_CLAIM_TIMEOUT_S;
  if (raw === undefined || raw === '') return {};
  if (!/^\d+$/.test(raw) || Number(raw) < 1) throw new Error(`PAYROLL_CLAIM_TIMEOUT_S must be a whole number of seconds, not "${raw}"`);
  return { claimTimeoutMs: Number(raw) * 1000 };
}

export async function openAppSession(
  ctx: CliContext,
  flags: { env?: string; baseUrl?: string; embedLocal?: boolean; retry?: Partial<RetryPolicy>; files?: boolean },
  logger: Logger,
  /** Runs before the app starts: output attached here also shows what the start says ("resuming 2 uploads"). */
  beforeStart?: (app: PayrollApp) => void,
): Promise<AppSession> {
  const profile = profileOf(flags.env, ctx.settings);
  let embedded: EmbeddedServer | undefined;
  if (flags.embedLocal && profile === 'local' && flags.baseUrl === undefined) embedded = await startEmbeddedServer(ctx, profile, logger);
  try {
    const app = createPayrollApp({
      dataDir: ctx.dataDir, settings: ctx.settings, secrets: ctx.secrets, profile, logger,
      // The embedded server listens on a new port each run but keeps its data: the journal names it, not its port.
      ...(embedded ? { baseUrl: embedded.server.url, credentials: embedded.credentials, serviceUrl: EMBEDDED_SERVICE } : flags.baseUrl ? { baseUrl: flags.baseUrl } : {}),
      ...(flags.retry ? { retry: flags.retry } : {}),
      ...(flags.files === false ? { files: false } : {}),
      ...claimTimeout(),
    });
    try {
      beforeStart?.(app);
      await app.start();
    } catch (error) {
      await app.stop().catch(() => undefined);
      throw error;
    }
    return {
      app,
      embedded: embedded !== undefined,
      async close() {
        await app.stop();
        if (embedded) {
          await embedded.server.ctx.processor.idle();
          await embedded.server.close();
        }
      },
    };
  } catch (error) {
    await embedded?.server.close();
    throw error;
  }
}
