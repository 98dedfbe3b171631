import { describe, expect, it } from 'vitest';
import { ApiError, NetworkError } from './api-errors';
import { createProxyResolver, matchesNoProxy } from './proxy-config';
import { backoffDelay, isRetryable, parseRetryAfter, withRetries } from './retry-policy';
import { baseUrlSchema } from '../../../shared/settings.schema';
import { checkUrl, joinUrl } from './url-policy';

const apiError = (status: number, retryAfterMs?: number) =>
  new ApiError({ status, title: 't', messages: [], request: 'GET /x', ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) });

describe('plain http', () => {
  const clientTakes = (url: string) => {
    try {
      checkUrl(url, 'the base URL');
      return true;
    } catch {
      return false;
    }
  };
  // The settings screen and the client decide alike: a base URL the settings accept is one the client talks to.
  it.each([
    ['http://127.0.0.1:8787', true], ['http://127.1', true], ['http://LOCALHOST./', false], ['http://[::1]:8080', true],
    ['http://[::ffff:127.0.0.1]', true], ['https://payroll.example.com', true],
    ['http://127.0.0.1.evil.com', false], ['http://localhost.evil.com', false], ['http://0.0.0.0', false], ['http://[::]', false],
    ['http://[::ffff:10.0.0.1]', false], ['http://10.0.0.1', false],
  ] as const)('%s: %s in the client and in the settings', (url, allowed) => {
    expect(clientTakes(url)).toBe(allowed);
    expect(baseUrlSchema.safeParse(url).success).toBe(allowed);
  });

  it('says to write localhost or 127.0.0.1 for localhost with a trailing dot, which DNS would resolve', () => {
    const hint = '"localhost." with a trailing dot is looked up through DNS, which may lead off this machine: write localhost or 127.0.0.1';
    expect(() => checkUrl('http://localhost.:8787', 'the base URL')).toThrow(
      `the base URL http://localhost.:8787 uses plain http; only https is allowed except to this machine (127.0.0.1, ::1, localhost); ${hint}`,
    );
    expect(baseUrlSchema.safeParse('http://localhost.:8787').error?.issues[0]?.message).toBe(
      `https is required (plain http only to this machine: 127.0.0.0/8, localhost or [::1]); ${hint}`,
    );
  });
});

describe('joinUrl', () => {
  it('keeps a base path prefix', () => {
    expect(joinUrl(new URL('https://h.example/sandbox/'), '/oauth/v1/access-token').href).toBe('https://h.example/sandbox/oauth/v1/access-token');
  });
});

describe('NO_PROXY', () => {
  const at = (url: string) => new URL(url);
  it('matches hosts, domains, ports, wildcards and subnets', () => {
    expect(matchesNoProxy('example.com', at('https://example.com'))).toBe(true);
    expect(matchesNoProxy('example.com', at('https://api.example.com'))).toBe(true);
    expect(matchesNoProxy('.example.com', at('https://api.example.com'))).toBe(true);
    expect(matchesNoProxy('*.example.com', at('https://api.example.com'))).toBe(true);
    expect(matchesNoProxy('example.com', at('https://badexample.com'))).toBe(false);
    expect(matchesNoProxy('a.test, example.com:8443', at('https://example.com:8443'))).toBe(true);
    expect(matchesNoProxy('example.com:8443', at('https://example.com'))).toBe(false);
    expect(matchesNoProxy('example.com:443', at('https://example.com'))).toBe(true);
    expect(matchesNoProxy('10.0.0.0/8', at('https://10.1.2.3'))).toBe(true);
    expect(matchesNoProxy('10.0.0.0/8', at('https://11.1.2.3'))).toBe(false);
    expect(matchesNoProxy('[::2]:443', at('https://[::2]'))).toBe(true);
    expect(matchesNoProxy('*', at('https://anything.example'))).toBe(true);
    expect(matchesNoProxy('', at('https://example.com'))).toBe(false);
  });

  it('picks the proxy by scheme, lower case first, and keeps loopback direct', () => {
    const resolve = createProxyResolver(undefined, {
      https_proxy: 'http://lower:3128', HTTPS_PROXY: 'http://upper:3128', HTTP_PROXY: 'plain:8080', NO_PROXY: 'internal.example',
    });
    expect(resolve(at('https://api.example.com'))?.host).toBe('lower:3128');
    expect(resolve(at('http://api.example.com'))?.href).toBe('http://plain:8080/');
    expect(resolve(at('https://svc.internal.example'))).toBeUndefined();
    expect(resolve(at('http://127.0.0.1:8787'))).toBeUndefined();
    expect(createProxyResolver('http://explicit:1', {})(at('http://127.0.0.1:8787'))?.host).toBe('explicit:1');
  });
});

describe('retry policy', () => {
  it('backs off with full jitter under a growing, capped ceiling', () => {
    const options = { retries: 5, baseDelayMs: 100, maxDelayMs: 1000 };
    expect(backoffDelay(0, options, () => 0.999)).toBe(99);
    expect(backoffDelay(3, options, () => 0.999)).toBe(799);
    expect(backoffDelay(10, options, () => 0.999)).toBe(999);
    expect(backoffDelay(10, options, () => 0)).toBe(0);
  });

  it('reads Retry-After as seconds or a date', () => {
    expect(parseRetryAfter('3')).toBe(3000);
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:28:10 GMT', Date.parse('Wed, 21 Oct 2015 07:28:00 GMT'))).toBe(10_000);
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(parseRetryAfter(undefined)).toBeUndefined();
  });

  it('retries a POST only when it surely did not arrive, or the answer says it was not taken', () => {
    expect(isRetryable(new NetworkError('x', { code: 'ECONNREFUSED', requestSent: false }), 'unsafe')).toBe(true);
    expect(isRetryable(new NetworkError('x', { code: 'ECONNRESET', requestSent: true }), 'unsafe')).toBe(false);
    expect(isRetryable(new NetworkError('x', { code: 'ECONNRESET', requestSent: true }), 'safe')).toBe(true);
    expect(isRetryable(new NetworkError('x', { code: 'DEPTH_ZERO_SELF_SIGNED_CERT', requestSent: false }), 'safe')).toBe(false);
    for (const status of [429, 503]) expect(isRetryable(apiError(status), 'unsafe')).toBe(true);
    // A gateway's 502 or 504 may come after the service took the request: never sent again by itself.
    for (const status of [500, 502, 504]) expect(isRetryable(apiError(status), 'unsafe')).toBe(false);
    expect(isRetryable(apiError(500), 'safe')).toBe(true);
    expect(isRetryable(apiError(400), 'safe')).toBe(false);
  });

  it('waits a short Retry-After and stops at once at a long one', async () => {
    const options = { retries: 3, baseDelayMs: 1, maxDelayMs: 50 };
    let calls = 0;
    const short = await withRetries('x', 'unsafe', options, undefined, () => {
      calls++;
      return calls === 1 ? Promise.reject(apiError(429, 5)) : Promise.resolve('ok');
    });
    expect([short, calls]).toEqual(['ok', 2]);
    calls = 0;
    const long = await withRetries('x', 'unsafe', options, undefined, () => {
      calls++;
      return Promise.reject(apiError(429, 60_000));
    }).catch((e: unknown) => e);
    expect(long).toMatchObject({ status: 429, retryAfterMs: 60_000 });
    expect(calls).toBe(1);
  });
});
