/**
 * Session-wide guards (checklist items 1, 5 and 7): every permission request and check is denied but one (the app's
 * own page writing text to the clipboard, for its Copy buttons), nothing but the app's own pages is loaded, and
 * responses carry the CSP even if a page came from elsewhere.
 */
import type { Session } from 'electron';
import { isAppUrl } from './app-protocol';
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

/**
 * The one permission granted: `clipboard-sanitized-write` (what `navigator.clipboard.writeText` asks for: the Copy
 * buttons of the server address, the client secret and an import id), to the app's own page in its main frame only.
 * Chromium still asks for a click for each write. Reading the clipboard stays denied: pasting rows is a paste event,
 * which needs no permission.
 */
export function isGrantedPermission(permission: string, isMainFrame: boolean, url: string | undefined): boolean {
  return permission === 'clipboard-sanitized-write' && isMainFrame && url !== undefined && isAppUrl(url);
}

export function guardSession(session: Guardable): void {
  session.setPermissionRequestHandler((_contents, permission, callback, details) => {
    callback(isGrantedPermission(permission, details.isMainFrame, details.requestingUrl));
  });
  session.setPermissionCheckHandler((_contents, permission, requestingOrigin, details) =>
    isGrantedPermission(permission, details.isMainFrame, details.requestingUrl ?? requestingOrigin));
  session.setDevicePermissionHandler(() => false);
  session.setDisplayMediaRequestHandler((_request, callback) => callback({}));
  session.webRequest.onBeforeRequest((details, callback) => callback({ cancel: !isAllowedRequest(details.url) }));
  session.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] } });
  });
}
