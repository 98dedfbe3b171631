/** `payroll-uploader server`: runs the local server until SIGINT or SIGTERM. */
import { createLogger } from '../lib/logger';
import { startServer } from '../server/server';
import { parseServerFlags } from './server-flags';

export async function serverCommand(args: string[]): Promise<number> {
  const options = parseServerFlags(args, process.env, (line) => process.stderr.write(`${line}\n`));
  const logger = createLogger('server');
  let server;
  try {
    server = await startServer({ ...options, logger });
  } catch (error) {
    const err = error as NodeJS.ErrnoException;
    if (err.code === 'EADDRINUSE') throw new Error(`port ${options.port ?? 8787} on ${options.host ?? '127.0.0.1'} is already in use; choose another with --port (0 picks a free one)`);
    if (err.code === 'EADDRNOTAVAIL') throw new Error(`cannot bind ${options.host}: no such address on this machine`);
    if (err.code === 'EACCES') throw new Error(`not allowed to bind ${options.host ?? '127.0.0.1'}:${options.port ?? 8787}; choose a port above 1023`);
    throw error;
  }
  logger.info(`data folder ${options.dataDir}`);
  process.stdout.write(`listening on ${server.url}\n`);
  const running = server;
  return new Promise<number>((resolve) => {
    const shutdown = (signal: string) => {
      logger.info(`${signal}: shutting down`);
      running.close().then(() => resolve(0), (error: Error) => {
        logger.error(`shutdown failed: ${error.message}`);
        resolve(1);
      });
    };
    process.once('SIGINT', () => shutdown('SIGINT'));
    process.once('SIGTERM', () => shutdown('SIGTERM'));
  });
}
