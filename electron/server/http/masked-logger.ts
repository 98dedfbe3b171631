/** The server's own log lines never show a secret sent in a query (a token, a pre-signed upload's signature). */
import type { Logger } from '../../lib/logger';
import { maskQuerySecrets } from '../local/log-bodies';

// The request log's own masking: the same keys, matched the same way, in every line.
const mask = (line: string) => maskQuerySecrets(line, 'text');

/** A logger that masks secret query values (`signature=`, `access_token=`...) in every line, its children too. */
export function maskedLogger(logger: Logger): Logger {
  return {
    debug: (m) => logger.debug(mask(m)),
    info: (m) => logger.info(mask(m)),
    warn: (m) => logger.warn(mask(m)),
    error: (m) => logger.error(mask(m)),
    child: (prefix) => maskedLogger(logger.child(prefix)),
  };
}
