/**
 * Which webhook URLs the local server may send events to: it must not become a way to reach other hosts.
 * The one check of a webhook URL, wherever it comes from (--webhook-url, PUT /local/v1/webhook) and again
 * before every attempt, so a URL stored by a start with --allow-remote-webhooks is not sent to by one without.
 */
import { isLoopbackHost, loopbackSpellingHint } from '../../../shared/loopback';

/** Longest webhook URL taken, before and after normalisation. */
export const MAX_WEBHOOK_URL_LENGTH = 2048;

/**
 * `ok`: the URL may be used, as `url`, the WHATWG normalised form (`new URL(value).href`) that is stored,
 * shown and sent to. Otherwise `problem` says why not, as a phrase to follow "url" or "the webhook URL ...";
 * `remote` is set when only the host is wrong, so --allow-remote-webhooks would make it usable.
 */
export type WebhookUrlCheck = { ok: true; url: string } | { ok: false; problem: string; remote: boolean };

const refuse = (problem: string, remote = false): WebhookUrlCheck => ({ ok: false, problem, remote });

const HTTP_ONLY = 'must be an absolute http(s) URL';
const NO_CREDENTIALS = 'must not hold a user name or password; authenticate the receiver by the signature';

/**
 * Checks a webhook URL. Besides the rules (http or https, no user or password, this machine only unless
 * `allowRemote`), it refuses what URL parsers read differently, so the stored and shown URL is the one the
 * server sends to: a backslash (`http://127.0.0.1\@evil.com/` is 127.0.0.1 to the WHATWG parser, evil.com to
 * others), anything but `//` after the scheme, an `@` before the host even with an empty user
 * (`http://:@127.0.0.1/`), a fragment (never sent over HTTP, so a webhook target has no use for one;
 * `http://127.0.0.1#@evil.com/`) and port 0. Spaces and control characters are left to the normalised form
 * (percent-encoded, or dropped as the WHATWG parser drops them), which is what is stored and shown.
 */
export function checkWebhookUrl(value: string, allowRemote: boolean): WebhookUrlCheck {
  if (value.length > MAX_WEBHOOK_URL_LENGTH) return refuse(`must be at most ${MAX_WEBHOOK_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return refuse(HTTP_ONLY);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return refuse(HTTP_ONLY);
  // The text as the WHATWG parser reads it: leading and trailing spaces and controls cut, tabs and newlines dropped.
  // eslint-disable-next-line no-control-regex -- control characters are what this removes
  const text = value.replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '').replace(/[\t\n\r]/g, '');
  if (text.includes('\\')) return refuse('must not contain a backslash, which URL parsers read differently');
  if (!/^https?:\/\/[^/]/i.test(text)) return refuse(`${HTTP_ONLY}, written scheme://host`);
  if (url.username || url.password) return refuse(NO_CREDENTIALS);
  // The authority is what follows `//` up to the first `/`, `?` or `#` (a backslash is refused above).
  const authority = /^https?:\/\/([^/?#]*)/i.exec(text)?.[1] ?? '';
  if (authority.includes('@')) return refuse(`${NO_CREDENTIALS} (not even an empty one before an @)`);
  if (text.includes('#')) return refuse('must not have a fragment (#...); it is never sent to the receiver');
  if (url.port === '0') return refuse('must not name port 0');
  if (url.href.length > MAX_WEBHOOK_URL_LENGTH) return refuse(`must be at most ${MAX_WEBHOOK_URL_LENGTH} characters once normalised`);
  if (!allowRemote && !isLoopbackHost(url.hostname)) {
    const hint = loopbackSpellingHint(url.hostname);
    return refuse(
      `must point to this machine (localhost, 127.0.0.1 or [::1]), not ${url.hostname}; ${hint ?? 'start the server with --allow-remote-webhooks to send elsewhere'}`,
      true,
    );
  }
  return { ok: true, url: url.href };
}

/**
 * Where an attempt to a stored webhook URL goes (`url`, normalised), or why it is refused before connecting
 * (`reason`, a sentence naming the URL). The URL may have been stored by an earlier start with
 * --allow-remote-webhooks, or before these checks existed.
 */
export function webhookSendRefusal(value: string, allowRemote: boolean): { reason: string } | { url: string } {
  if (value === '') return { reason: 'no webhook URL is registered any more' };
  const checked = checkWebhookUrl(value, allowRemote);
  if (checked.ok) return { url: checked.url };
  if (checked.remote) {
    const { hostname } = new URL(value);
    return {
      reason: `the webhook URL ${value} names a host other than this machine (${hostname}); `
        + `${loopbackSpellingHint(hostname) ?? 'start the server with --allow-remote-webhooks to send there'}`,
    };
  }
  return { reason: `the webhook URL ${JSON.stringify(value)} ${checked.problem}; register it again` };
}
