/** The server's own log lines never show a pre-signed upload address's signature (it grants the upload). */
import type { Logger } from '../../lib/logger';

const SIGNATURE_RE = /([?&]signature=)[^&\s"'<>]*/gi;

export const maskSignatures = (text: string) => (text.includes('ignature=') ? text.replace(SIGNATURE_RE, '$1***') : text);

/** A logger that masks `signature=` query values in every line, its children too. */
export function maskedLogger(logger: Logger): Logger {
  return {
    debug: (m) => logger.debug(maskSignatures(m)),
    info: (m) => logger.info(maskSignatures(m)),
    warn: (m) => logger.warn(maskSignatures(m)),
    error: (m) => logger.error(maskSignatures(m)),
    child: (prefix) => maskedLogger(logger.child(prefix)),
  };
}
