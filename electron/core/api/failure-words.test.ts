import { describe, expect, it } from 'vitest';
import { ApiError, NetworkError, sentAs, UnexpectedResponseError } from './api-errors';
import { retriedNetworkWords, signInFailureWords } from './failure-words';

const answer = (status: number, title: string, messages: string[], extra: { oauthError?: string; traceId?: string } = {}) =>
  new ApiError({ status, title, messages, request: 'POST /oauth/v1/access-token', ...extra });

describe('sign-in failures in words (connection tests, and batches that could not sign in)', () => {
  it('says the service did not accept the client, without the request the API client made', () => {
    for (const error of [answer(401, 'Unauthorized', ['unknown client or wrong client secret']), answer(400, 'Bad Request', [], { oauthError: 'invalid_client' })]) {
      const words = signInFailureWords(error);
      expect(words).toMatch(/^The service did not accept this client ID and secret/);
      expect(words).not.toContain('/oauth/v1/access-token');
    }
  });

  it('names the environment variables, not the form, when the credentials they give are refused', () => {
    const error = sentAs(answer(401, 'Unauthorized', ['unknown client or wrong client secret']), { clientId: 'ci-bot', source: 'env' });
    expect(signInFailureWords(error)).toBe('The service did not accept the client ID ci-bot and its secret from the environment variables '
      + 'PAYROLL_CLIENT_ID and PAYROLL_CLIENT_SECRET (it said: unknown client or wrong client secret). To change them, set PAYROLL_CLIENT_ID '
      + 'and PAYROLL_CLIENT_SECRET to the client ID and secret your service provider gave you, or remove both so that the ones saved in '
      + 'Settings (or by `payroll-uploader credentials set`) are used, then start the app or the uploader again: while either variable is '
      + 'set, what is saved in Settings is not used.');
    const saved = sentAs(answer(401, 'Unauthorized', []), { clientId: 'acme', source: 'keychain' });
    expect(signInFailureWords(saved)).toMatch(/^The service did not accept this client ID and secret\. Check both with your service provider, type them again/);
  });

  it('points at the base URL when nothing there signs clients in', () => {
    expect(signInFailureWords(answer(404, 'Not Found', []))).toMatch(/no sign-in at this base URL .*check the base URL/);
    expect(signInFailureWords(new UnexpectedResponseError({ status: 200, messages: [], request: 'POST /oauth/v1/access-token' })))
      .toMatch(/not as the service does: check the base URL/);
  });

  it('keeps the trace id of an answer the service could not give, for support', () => {
    expect(signInFailureWords(answer(503, 'Service Unavailable', ['down for maintenance'], { traceId: 'abc123' })))
      .toBe('The service could not sign this client in: it answered 503 Service Unavailable (down for maintenance) (trace id abc123: give it to support if this goes on).');
  });

  it('says a failure to reach the service with its address and what went wrong, not the request the app made', () => {
    const refused = new NetworkError('cannot reach POST http://127.0.0.1:9/oauth/v1/access-token: connection refused', {
      code: 'ECONNREFUSED', requestSent: false, reason: 'connection refused', address: 'http://127.0.0.1:9',
    });
    expect(signInFailureWords(refused)).toBe('Nothing answers at http://127.0.0.1:9 (connection refused). Check the base URL, and that the service is running, then try again.');
    const silent = new NetworkError('POST http://127.0.0.1:8/oauth/v1/access-token: no answer within 30000 ms', {
      code: 'ETIMEDOUT', requestSent: true, reason: 'no answer within 30 s', address: 'http://127.0.0.1:8',
    });
    expect(signInFailureWords(silent)).toBe('The sign-in went to the service at http://127.0.0.1:8, but no answer came back (no answer within 30 s). '
      + 'Try again; if it keeps happening, check the base URL with your service provider.');
  });
});

describe('a request the upload queue tries again by itself, in words', () => {
  it('says where it went and what to check, without the request line or an upload address, and no "try again"', () => {
    const refused = new NetworkError('cannot reach PUT http://127.0.0.1:9/uploads/71449d58?signature=abc: connection refused', {
      code: 'ECONNREFUSED', requestSent: false, reason: 'connection refused', address: 'http://127.0.0.1:9',
    });
    expect(retriedNetworkWords(refused, 'The upload')).toBe('Nothing answers at http://127.0.0.1:9 (connection refused). Check the base URL, and that the service is running');
    const cut = new NetworkError('PUT http://127.0.0.1:9/uploads/71449d58: the connection broke (connection reset)', {
      code: 'ECONNRESET', requestSent: true, reason: 'connection reset', address: 'http://127.0.0.1:9',
    });
    const words = retriedNetworkWords(cut, 'The upload');
    expect(words).toBe('The upload went to the service at http://127.0.0.1:9, but no answer came back (connection reset). '
      + 'Check the network connection; if it keeps happening, check the base URL with your service provider');
    for (const said of [retriedNetworkWords(refused, 'The upload'), words]) expect(said).not.toMatch(/PUT|\/uploads|signature|try again/);
  });
});
