/** Which webhook URLs the local server may send events to: it must not become a way to reach other hosts. */
import { isLoopbackHost } from '../../../shared/loopback';

/** What is wrong with a webhook URL, or undefined when it may be used. */
export function webhookUrlProblem(value: string, allowRemote: boolean): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'url must be an absolute http(s) URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'url must be an absolute http(s) URL';
  if (url.username || url.password) return 'url must not hold a user name or password; authenticate the receiver by the signature';
  if (!allowRemote && !isLoopbackHost(url.hostname)) {
    return `url must point to this machine (localhost, 127.0.0.1 or [::1]), not ${url.hostname}; start the server with --allow-remote-webhooks to send elsewhere`;
  }
  return undefined;
}
