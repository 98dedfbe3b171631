/** What a browser is shown about signing in to browser mode: the page after a good address, and the refusals. */
import { BRIDGE_HTTP } from '../../../shared/bridge';
import { SIGN_IN_CODE_TTL_MS } from './sign-ins';

const MINUTES = SIGN_IN_CODE_TTL_MS / 60_000;
/** How a clerk gets a new address: the window is the terminal where `payroll-uploader ui` (or npm start) runs. */
const NEW_ADDRESS_HINT = 'For a new address, press Enter in the window where Payroll Uploader is running ' +
  '(npm start then opens it in the browser for you), or stop Payroll Uploader there with Ctrl+C and start it again.';
export const USED_ADDRESS_MESSAGE = 'This sign-in address has already been used or has expired: each one opens Payroll ' +
  `Uploader once, within ${MINUTES} minutes of being made. ${NEW_ADDRESS_HINT}`;
export const NOT_SIGNED_IN_MESSAGE = 'This browser is not signed in to Payroll Uploader: open the sign-in address it ' +
  `printed in its window (each works once, within ${MINUTES} minutes). ${NEW_ADDRESS_HINT}`;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The script of the signed-in page, served at SIGNED_IN_SCRIPT_PATH (the page's policy allows no inline script). */
export const SIGNED_IN_SCRIPT_PATH = '/signed-in.js';
export const SIGNED_IN_SCRIPT = `'use strict';
const key = document.querySelector('meta[name="${BRIDGE_HTTP.keyStorage}"]');
if (key) localStorage.setItem('${BRIDGE_HTTP.keyStorage}', key.content);
location.replace(document.querySelector('a').getAttribute('href'));
`;

/**
 * The answer to a good sign-in address (sent with the session cookie): a page that keeps the bridge key in its
 * origin's storage, where no other port's page can read it, and moves on to the clean address. A page, not a redirect:
 * after a redirect the browser would count the clean address as reached from the site that opened the sign-in address
 * (npm start's file:// page), and send no SameSite=Strict cookie there.
 */
export function signedInPage(target: string, bridgeKey: string): string {
  const href = escapeHtml(target);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">` +
    `<meta name="${BRIDGE_HTTP.keyStorage}" content="${escapeHtml(bridgeKey)}"><script defer src="${SIGNED_IN_SCRIPT_PATH}"></script>` +
    `<title>Payroll Uploader</title></head><body><p><a href="${href}">Open Payroll Uploader</a></p></body></html>\n`;
}
