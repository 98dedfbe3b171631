/**
 * Session-wide guards (checklist items 1, 5 and 7): every permission request and check is denied, nothing but the
 * app's own pages is loaded, and responses carry the CSP even if a page came from elsewhere.
 */
import type { Session } from 'electron';
import { CONTENT_SECURITY_POLICY } from './content-security-policy';

type Guardable = Pick<
  Session,
  'setPermissionRequestHandler' | 'setPermissionCheckHandler' | 'setDevicePermissionHandler' | 'setDisplayMediaRequestHandler' | 'webRequest'
>;

/**
 * Schemes the renderer may load at all: its own pages, inline images, and the built-in developer tools (devtools:).
 * Not chrome-extension: the app loads no extensions, so such a request could only come from something planted.
 */
const ALLOWED_SCHEMES = new Set(['app:', 'data:', 'devtools:']);

export function isAllowedRequest(url: string): boolean {
  try {
    return ALLOWED_SCHEMES.has(new URL(url).protocol);
  } catch {
    return false;
  }
}

export function guardSession(session: Guardable): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
  session.setDevicePermissionHandler(() => false);
  session.setDisplayMediaRequestHandler((_request, callback) => callback({}));
  session.webRequest.onBeforeRequest((details, callback) => callback({ cancel: !isAllowedRequest(details.url) }));
  session.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] } });
  });
}
