/** `payroll-uploader server`: runs the local server until SIGINT or SIGTERM. */
import { createLogger } from '../lib/logger';
import { startServer } from '../server/server';
import { NOT_THIS_MACHINE, checkHost, parseServerFlags } from './server-flags';
import { UsageError } from './usage-error';

export async function serverCommand(args: string[]): Promise<number> {
  const options = parseServerFlags(args, process.env, (line) => process.stderr.write(`${line}\n`));
  await checkHost(options.host);
  const logger = createLogger('server');
  let server;
  try {
    server = await startServer({ ...options, logger });
  } catch (error) {
    const err = error as NodeJS.ErrnoException;
    // Only the errors of binding are about the port or the address: an EACCES of a file (the data folder) is not.
    if (err.syscall !== 'listen' && err.syscall !== 'bind') throw error;
    if (err.code === 'EADDRINUSE') throw new Error(`port ${options.port ?? 8787} on ${options.host ?? '127.0.0.1'} is already in use; choose another with --port (0 picks a free one)`);
    if (err.code === 'EADDRNOTAVAIL') throw new UsageError(NOT_THIS_MACHINE(options.host ?? '127.0.0.1'));
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
