import { describe, expect, it } from 'vitest';
import { ApiError, NetworkError, UnexpectedResponseError } from '../api';
import { connectionTestFailure } from './connection-test-words';

const answer = (status: number, title: string, messages: string[], extra: { oauthError?: string; traceId?: string } = {}) =>
  new ApiError({ status, title, messages, request: 'POST /oauth/v1/access-token', ...extra });

describe('connection test failures in words', () => {
  it('says the service did not accept the client, without the request the API client made', () => {
    for (const error of [answer(401, 'Unauthorized', ['unknown client or wrong client secret']), answer(400, 'Bad Request', [], { oauthError: 'invalid_client' })]) {
      const words = connectionTestFailure(error);
      expect(words).toMatch(/^The service did not accept this client ID and secret/);
      expect(words).not.toContain('/oauth/v1/access-token');
    }
  });

  it('points at the base URL when nothing there signs clients in', () => {
    expect(connectionTestFailure(answer(404, 'Not Found', []))).toMatch(/no sign-in at this base URL .*check the base URL/);
    expect(connectionTestFailure(new UnexpectedResponseError({ status: 200, messages: [], request: 'POST /oauth/v1/access-token' })))
      .toMatch(/not as the service does: check the base URL/);
  });

  it('keeps the trace id of an answer the service could not give, for support', () => {
    expect(connectionTestFailure(answer(503, 'Service Unavailable', ['down for maintenance'], { traceId: 'abc123' })))
      .toBe('The service could not sign this client in: it answered 503 Service Unavailable (down for maintenance) (trace id abc123: give it to support if this goes on).');
  });

  it('leaves a failure to reach the service in its own words', () => {
    const error = new NetworkError('could not connect to http://127.0.0.1:9 (ECONNREFUSED)', { requestSent: false });
    expect(connectionTestFailure(error)).toBe('could not connect to http://127.0.0.1:9 (ECONNREFUSED)');
  });
});
