/** `watch --env local`: starts the local server in-process, with the user's credentials or a one-run client. */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { SCOPES } from '../../shared';
import type { ProfileName } from '../../shared/settings.schema';
import { MissingCredentialsError, resolveCredentials } from '../core/credentials';
import type { Logger } from '../lib/logger';
import type { RunningServer } from '../server/server';
import { startServer } from '../server/server';
import type { CliContext } from './cli-context';

export type EmbeddedServer = { server: RunningServer; credentials: () => Promise<{ clientId: string; clientSecret: string }> };

export async function startEmbeddedServer(ctx: CliContext, profile: ProfileName, logger: Logger): Promise<EmbeddedServer> {
  let client: { clientId: string; clientSecret: string };
  try {
    const found = await resolveCredentials({ profile, settings: ctx.settings.get(), store: ctx.secrets });
    client = { clientId: found.clientId, clientSecret: found.clientSecret };
  } catch (error) {
    if (!(error instanceof MissingCredentialsError)) throw error;
    // Nothing configured: a client that lives only as long as this run.
    client = { clientId: 'local-uploader', clientSecret: randomBytes(24).toString('base64url') };
  }
  const server = await startServer({
    dataDir: join(ctx.dataDir, 'local-server'),
    port: 0,
    clients: [{ id: client.clientId, secret: client.clientSecret, scopes: [...SCOPES] }],
    logger: logger.child('server'),
    notice: () => undefined,
  });
  logger.info(`embedded local server listening on ${server.url}`);
  return { server, credentials: () => Promise.resolve(client) };
}
