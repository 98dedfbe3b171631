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
  port.postMessage({ type: 'fatal', error: envelopeOf(error, logger) });
  process.exit(1);
}
