/** Opens the app object for a command: profile, base URL (or the embedded local server), credentials. */
import type { PayrollApp } from '../core/app';
import { createPayrollApp } from '../core/app';
import type { RetryPolicy } from '../core/queue';
import type { Logger } from '../lib/logger';
import type { CliContext } from './cli-context';
import { profileOf } from './cli-context';
import type { EmbeddedServer } from './embedded-server';
import { startEmbeddedServer } from './embedded-server';

export type AppSession = { app: PayrollApp; close(): Promise<void> };

export async function openAppSession(
  ctx: CliContext,
  flags: { env?: string; baseUrl?: string; embedLocal?: boolean; retry?: Partial<RetryPolicy> },
  logger: Logger,
): Promise<AppSession> {
  const profile = profileOf(flags.env, ctx.settings);
  let embedded: EmbeddedServer | undefined;
  if (flags.embedLocal && profile === 'local' && flags.baseUrl === undefined) embedded = await startEmbeddedServer(ctx, profile, logger);
  try {
    const app = createPayrollApp({
      dataDir: ctx.dataDir, settings: ctx.settings, secrets: ctx.secrets, profile, logger,
      ...(embedded ? { baseUrl: embedded.server.url, credentials: embedded.credentials } : flags.baseUrl ? { baseUrl: flags.baseUrl } : {}),
      ...(flags.retry ? { retry: flags.retry } : {}),
    });
    await app.start();
    return {
      app,
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
