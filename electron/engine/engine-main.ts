/**
 * The engine process's entry (built to dist/engine/engine.js): in the app a utilityProcess started by main, in
 * tests a Node child. `--data-dir D` names the app's data folder (default: the user's app-data folder).
 */
import { appDataDir } from '../lib/app-data';
import { createLogger } from '../lib/logger';
import { envelopeOf, startEngineHost } from './engine-host';
import { enginePortOf } from './engine-port';
import { createEngineServices } from './engine-services';

function argValue(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

const logger = createLogger('engine');
const port = enginePortOf();
try {
  const services = await createEngineServices({ dataDir: argValue('--data-dir') ?? appDataDir(), logger });
  const host = startEngineHost(port, services, logger);
  // A Node parent that went away cannot stop us with a message: stop as if asked.
  process.once('disconnect', () => void host.stop());
  await host.stopped;
  process.exit(0);
} catch (error) {
  // A start-up failure (a broken settings file, an unreadable data folder) is said to the clerk as it is.
  logger.error(`the engine could not start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  const envelope = envelopeOf(error);
  port.postMessage({ type: 'fatal', error: envelope.code === 'internal' && error instanceof Error ? { ...envelope, message: error.message } : envelope });
  process.exit(1);
}
