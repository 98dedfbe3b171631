export { createSession, EMBEDDED_SERVICE, type Session, type SessionEvents, type SessionOptions } from './session';
export { ConflictError, NotConfiguredError, NotFoundError, UnsupportedError, UploadsStoppedError, lockLostMessage } from './session-errors';
export { APP_LOCAL_CLIENT_ID, LOCAL_SERVER_DIR, pointsAtAppServer, type AppClient } from './local-server-part';
