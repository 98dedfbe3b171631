import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../../test/helpers/local-server';
import { api, getToken, loggedRows, startTestServer } from '../../../test/helpers/local-server';

const census = [{ lastName: 'Silva', firstName: 'Ana', employeeRegistration: 'F-1', hireDate: '2024-03-01', employeeStatus: 'ACTIVE' }];

let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await startTestServer();
  token = await getToken(server.url);
});
afterAll(async () => server.stop());
afterEach(async () => {
  expect((await api(server.url, token, 'DELETE', '/local/v1/faults')).status).toBe(204);
});

const setFaults = async (rules: unknown) => {
  const res = await api(server.url, token, 'PUT', '/local/v1/faults', rules);
  expect(res.status).toBe(200);
  return res.body;
};

describe('fault rules', () => {
  it('are set, read back and cleared', async () => {
    const rules = [{ pathPrefix: '/law/api/v1/census', errorRate: 1 }, { pathPrefix: '/law/', latencyMs: 5, errorStatus: 500, errorRate: 0.5 }];
    expect(await setFaults(rules)).toEqual(rules);
    expect((await api(server.url, token, 'GET', '/local/v1/faults')).body).toEqual(rules);
    expect((await api(server.url, token, 'DELETE', '/local/v1/faults')).status).toBe(204);
    expect((await api(server.url, token, 'GET', '/local/v1/faults')).body).toEqual([]);
  });

  it.each([
    [{ pathPrefix: '/x', errorRate: 1 }, /JSON array/],
    [[{ errorRate: 1 }], /pathPrefix is required/],
    [[{ pathPrefix: 'law', errorRate: 1 }], /must start with \//],
    [[{ pathPrefix: '/local/v1/faults', errorRate: 1 }], /must not be under \/local\/v1/],
    [[{ pathPrefix: '/x', errorRate: 1.5 }], /errorRate must be a number from 0 to 1/],
    [[{ pathPrefix: '/x', dropRate: -0.1 }], /dropRate must be a number from 0 to 1/],
    [[{ pathPrefix: '/x', latencyMs: 1.5 }], /latencyMs must be a whole number/],
    [[{ pathPrefix: '/x', latencyMs: 60_001 }], /latencyMs must be a whole number/],
    [[{ pathPrefix: '/x', errorRate: 1, errorStatus: 502 }], /errorStatus must be 500 or 503/],
    [[{ pathPrefix: '/x', processingDelayMs: -1 }], /^\[0\]\.processingDelayMs: processingDelayMs must be a whole number from 0 to 600000$/],
    [[{ pathPrefix: '/x', processingDelayMs: 1.5 }], /processingDelayMs must be a whole number from 0 to 600000/],
    [[{ pathPrefix: '/x', processingDelayMs: 600_001 }], /processingDelayMs must be a whole number from 0 to 600000/],
    [[{ pathPrefix: '/x', processingDelayMs: '1500' }], /processingDelayMs must be a whole number from 0 to 600000/],
    [[{ pathPrefix: '/x' }], /at least one of latencyMs, errorRate, dropRate, processingDelayMs/],
    [[{ pathPrefix: '/x', errorRate: 1, typo: 1 }], /unknown field\(s\): typo/],
    [[{ pathPrefix: '/x', errorRate: 1 }, { pathPrefix: '/x', dropRate: 1 }], /each pathPrefix may appear only once/],
    // Rules match the path alone: a query or fragment in the prefix would make a rule that never fires.
    [[{ pathPrefix: '/law/api/v1/census?x=1', errorRate: 1 }], /^\[0\]\.pathPrefix: pathPrefix must not hold \? or #: rules match the path only/],
    [[{ pathPrefix: '/law#top', errorRate: 1 }], /pathPrefix must not hold \? or #/],
    [[{ pathPrefix: '/law/%zz', errorRate: 1 }], /pathPrefix holds a % that does not start a valid percent-encoding; write a literal % as %25/],
    [[{ pathPrefix: '/law/%E2%82', errorRate: 1 }], /valid percent-encoding/],
    // Decoded first, so an encoded /local/v1 is seen, and so is a prefix given twice in two spellings.
    [[{ pathPrefix: '/loc%61l/v1/faults', errorRate: 1 }], /must not be under \/local\/v1/],
    [[{ pathPrefix: '/law', errorRate: 1 }, { pathPrefix: '/l%61w', dropRate: 1 }], /each pathPrefix may appear only once/],
  ])('refuses %j with a 400 and keeps the rules it had', async (rules, message) => {
    await setFaults([{ pathPrefix: '/keep', latencyMs: 1 }]);
    const res = await api(server.url, token, 'PUT', '/local/v1/faults', rules);
    expect(res.status).toBe(400);
    expect((res.body as { errors: string[] }).errors.join('\n')).toMatch(message);
    expect((await api(server.url, token, 'GET', '/local/v1/faults')).body).toEqual([{ pathPrefix: '/keep', latencyMs: 1 }]);
  });
});

describe('injected faults', () => {
  it('errorRate 1 answers 503 with the error body, errorStatus 500 when asked, and DELETE ends it', async () => {
    await setFaults([{ pathPrefix: '/law/api/v1/census', errorRate: 1 }]);
    const failed = await api(server.url, token, 'POST', '/law/api/v1/census', census);
    expect(failed.status).toBe(503);
    expect(failed.body).toMatchObject({ title: 'Service Unavailable', statusCode: 503, errors: [expect.stringMatching(/injected fault/)] });
    expect(failed.headers.get('x-trace-id')).toBeTruthy();
    // Other paths are untouched.
    expect((await api(server.url, token, 'GET', '/law/api/v1/deliveries')).status).toBe(200);

    await setFaults([{ pathPrefix: '/law/api/v1/census', errorRate: 1, errorStatus: 500 }]);
    expect((await api(server.url, token, 'POST', '/law/api/v1/census', census)).status).toBe(500);

    await api(server.url, token, 'DELETE', '/local/v1/faults');
    expect((await api(server.url, token, 'POST', '/law/api/v1/census', census)).status).toBe(201);
  });

  it('errorRate 0 never fails and the longest matching prefix decides', async () => {
    await setFaults([{ pathPrefix: '/law/', errorRate: 1 }, { pathPrefix: '/law/api/v1/deliveries', errorRate: 0 }]);
    for (let i = 0; i < 5; i++) expect((await api(server.url, token, 'GET', '/law/api/v1/deliveries')).status).toBe(200);
    expect((await api(server.url, token, 'GET', '/law/api/v1/deliveries/1')).status).toBe(404);
    expect((await api(server.url, token, 'POST', '/law/api/v1/receipt', [])).status).toBe(503);
  });

  it('latency delays the request, which still answers', async () => {
    await setFaults([{ pathPrefix: '/law/api/v1/census', latencyMs: 200 }]);
    const res = await api(server.url, token, 'POST', '/law/api/v1/census', [{ ...census[0], employeeRegistration: 'F-2' }]);
    expect(res.status).toBe(201);
  });

  it('dropRate 1 destroys the connection: the client sees a network error, and the log a status 0', async () => {
    await setFaults([{ pathPrefix: '/law/api/v1/census', dropRate: 1 }]);
    const attempt = fetch(`${server.url}/law/api/v1/census`, {
      method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(census),
    });
    await expect(attempt).rejects.toThrow(TypeError);
    const rows = await loggedRows(server.url, token, 'pathPrefix=/law/api/v1/census&status=0', () => true);
    // The caller's own row: a dropped request is shown to the client whose token it bore only.
    expect(rows[0]).toMatchObject({ method: 'POST', status: 0, clientId: 'test-client' });
  });

  it('meets a rule whatever percent-encoding the path is written in, as the router reads it', async () => {
    await setFaults([{ pathPrefix: '/law/api/v1/census', errorRate: 1 }]);
    expect((await api(server.url, token, 'POST', '/law/api/v1/%63ensus', census)).status).toBe(503);
  });

  it('decodes a percent-encoded prefix as paths are decoded, so the rule fires and is shown as it matches', async () => {
    expect(await setFaults([{ pathPrefix: '/law/api/v1/%63ensus', errorRate: 1 }])).toEqual([{ pathPrefix: '/law/api/v1/census', errorRate: 1 }]);
    expect((await api(server.url, token, 'POST', '/law/api/v1/census', census)).status).toBe(503);
    expect((await api(server.url, token, 'POST', '/law/api/v1/%63ensus', census)).status).toBe(503);
    // A ? that is part of a path is written encoded, in the prefix as in the path.
    expect(await setFaults([{ pathPrefix: '/law/api/v1/census%3F', errorRate: 1 }])).toEqual([{ pathPrefix: '/law/api/v1/census?', errorRate: 1 }]);
    expect((await api(server.url, token, 'POST', '/law/api/v1/census%3Fx', census)).status).toBe(503);
  });

  it('never applies to /local/v1, so faults can always be switched off', async () => {
    await setFaults([{ pathPrefix: '/', errorRate: 1 }]);
    expect((await api(server.url, token, 'POST', '/law/api/v1/census', census)).status).toBe(503);
    expect((await api(server.url, token, 'GET', '/openapi.json')).status).toBe(503);
    // A request without credentials is nobody's: no client's rules apply to it.
    expect((await api(server.url, undefined, 'GET', '/openapi.json')).status).toBe(200);
    expect((await api(server.url, token, 'GET', '/local/v1/faults')).status).toBe(200);
    expect((await api(server.url, token, 'GET', '/local/v1/imports')).status).toBe(200);
    expect((await api(server.url, undefined, 'GET', '/local/v1/health')).status).toBe(200);
    await setFaults([{ pathPrefix: '/', dropRate: 1 }]);
    expect((await api(server.url, token, 'DELETE', '/local/v1/faults')).status).toBe(204);
    expect((await api(server.url, token, 'POST', '/law/api/v1/census', [{ ...census[0], employeeRegistration: 'F-3' }])).status).toBe(201);
  });
});
