import { describe, expect, it } from 'vitest';
import { checkWebhookUrl, webhookSendRefusal } from './webhook-url';

/** Why the URL is refused, or undefined when it may be used. */
const webhookUrlProblem = (url: string, allowRemote: boolean) => {
  const checked = checkWebhookUrl(url, allowRemote);
  return checked.ok ? undefined : checked.problem;
};

describe('checkWebhookUrl: which URLs', () => {
  it.each(['http://localhost:9/x', 'http://127.0.0.2:9/x', 'https://[::1]:9/x', 'http://[::ffff:127.0.0.1]:9/x'])(
    'takes %s, which names this machine',
    (url) => expect(webhookUrlProblem(url, false)).toBeUndefined(),
  );
  // `*.localhost` would go to DNS, which may answer with any address.
  it.each(['http://hooks.localhost:9/x', 'http://127.0.0.1.evil.com/x', 'http://0.0.0.0:9/x', 'http://[::]:9/x', 'http://[::ffff:10.0.0.1]/x'])(
    'refuses %s without --allow-remote-webhooks',
    (url) => {
      expect(webhookUrlProblem(url, false)).toMatch(/--allow-remote-webhooks/);
      expect(webhookUrlProblem(url, true)).toBeUndefined();
    },
  );

  // `localhost.` looks like this machine, but the trailing dot sends the name to DNS: the answer says how to write it.
  it.each(['http://localhost.:9/x', 'http://LOCALHOST.:9/x', 'http://localhost..:9/x'])('refuses %s without --allow-remote-webhooks, saying to write localhost', (url) => {
    const host = new URL(url).hostname;
    expect(webhookUrlProblem(url, false)).toBe(
      `must point to this machine (localhost, 127.0.0.1 or [::1]), not ${host}; "${host}" with a trailing dot is looked up through DNS, which may lead off this machine: write localhost or 127.0.0.1`,
    );
    expect(webhookUrlProblem(url, true)).toBeUndefined();
    expect(webhookSendRefusal(url, false)).toEqual({
      reason: `the webhook URL ${url} names a host other than this machine (${host}); "${host}" with a trailing dot is looked up through DNS, which may lead off this machine: write localhost or 127.0.0.1`,
    });
  });

  // Each is sent to 127.0.0.1 by the WHATWG parser, but another parser (or a reader) would see evil.com.
  it.each([
    ['http://127.0.0.1\\@evil.com/', /backslash/],
    ['http://127.0.0.1\\\\evil.com/hook', /backslash/],
    ['http://127.0.0.1#@evil.com/', /fragment/],
    ['http://:@127.0.0.1/', /user name or password/],
    ['http://@127.0.0.1/', /user name or password/],
    ['http://127.0.0.1%2f@evil.com/', /user name or password/],
    ['http://127.0.0.1:0/hook', /port 0/],
    ['http://127.0.0.1:00/hook', /port 0/],
    ['http://127.0.0.1/hook#', /fragment/],
    ['http://127.0.0.1/hook#part', /fragment/],
    ['http:127.0.0.1/hook', /scheme:\/\/host/],
    ['http:///127.0.0.1/hook', /scheme:\/\/host/],
    ['http://127.0.0.1\t#@evil.com/', /fragment/],
    ['http://127.0.0.1\t@evil.com/', /user name or password/],
    ['http://127.0.0.1\n\\@evil.com/', /backslash/],
    [`http://127.0.0.1/${'a'.repeat(2040)}`, /at most 2048/],
  ])('refuses %s, which URL parsers read differently, with or without --allow-remote-webhooks', (url, message) => {
    expect(webhookUrlProblem(url, false)).toMatch(message);
    expect(webhookUrlProblem(url, true)).toMatch(message);
    expect(webhookUrlProblem(url, true)).toMatch(/^must/);
  });

  it.each([
    ['ftp://127.0.0.1/x', /http\(s\)/], ['file:///etc/passwd', /http\(s\)/], ['not a url', /http\(s\)/], ['', /http\(s\)/],
    ['http://user:pw@127.0.0.1:9/x', /user name or password/], ['http://user@127.0.0.1:9/x', /user name or password/],
  ])('keeps refusing %s', (url, message) => expect(webhookUrlProblem(url, true)).toMatch(message));
});

describe('checkWebhookUrl: the normalised form', () => {
  it.each([
    ['HTTP://LOCALHOST:80/hook', 'http://localhost/hook'],
    ['https://127.1:443/a/../hook?x=1', 'https://127.0.0.1/hook?x=1'],
    ['http://%31%32%37.0.0.1:8080/hook', 'http://127.0.0.1:8080/hook'],
    ['http://[0:0::1]:9', 'http://[::1]:9/'],
    ['http://127.0.0.1:9/a%20b?q', 'http://127.0.0.1:9/a%20b?q'],
    // Spaces are percent-encoded, tabs and newlines dropped, leading and trailing blanks cut, as the parser does.
    ['http://127.0.0.1:9/a b', 'http://127.0.0.1:9/a%20b'],
    [' \thttp://127.0.0.1:9/a\tb\n', 'http://127.0.0.1:9/ab'],
  ])('normalises %s to %s, the URL stored, shown and sent to', (url, href) => {
    expect(checkWebhookUrl(url, false)).toEqual({ ok: true, url: href });
  });

  it('marks a refusal that only --allow-remote-webhooks would lift', () => {
    expect(checkWebhookUrl('https://hooks.example.com/x', false)).toMatchObject({ ok: false, remote: true });
    expect(checkWebhookUrl('https://HOOKS.example.com:443/x', true)).toEqual({ ok: true, url: 'https://hooks.example.com/x' });
    expect(checkWebhookUrl('https://hooks.example.com/x#y', false)).toMatchObject({ ok: false, remote: false });
  });
});

describe('webhookSendRefusal', () => {
  it('names the URL and the flag when a stored URL points elsewhere and the server runs without it', () => {
    expect(webhookSendRefusal('http://192.0.2.1:9/hook', false)).toEqual({
      reason: 'the webhook URL http://192.0.2.1:9/hook names a host other than this machine (192.0.2.1); start the server with --allow-remote-webhooks to send there',
    });
    expect(webhookSendRefusal('http://192.0.2.1:9/hook', true)).toEqual({ url: 'http://192.0.2.1:9/hook' });
  });

  it('refuses a stored URL that today\'s registration rules refuse, and a missing one', () => {
    expect(webhookSendRefusal('http://127.0.0.1\\@evil.com/', true)).toEqual({
      reason: 'the webhook URL "http://127.0.0.1\\\\@evil.com/" must not contain a backslash, which URL parsers read differently; register it again',
    });
    expect(webhookSendRefusal('', false)).toEqual({ reason: 'no webhook URL is registered any more' });
    expect(webhookSendRefusal('http://LOCALHOST:9/x', false)).toEqual({ url: 'http://localhost:9/x' });
  });
});
