/** Tokens and client credentials as strict clients and careful testers use them, over real HTTP. */
import { rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import * as oauth from 'oauth4webapi';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCOPES } from '../../shared';
import { DB_FILE } from '../../electron/server/db/database';
import type { TestServer } from '../helpers/local-server';
import { api, getToken, startTestServer, tempDir } from '../helpers/local-server';

const census = [{ lastName: 'Doe', firstName: 'Jane', employeeRegistration: 'E-1', hireDate: '2026-01-05', employeeStatus: 'ACTIVE' }];
const all = [...SCOPES];

/** A token through oauth4webapi, a certified client that form-url-encodes id and secret (RFC 6749 section 2.3.1). */
async function strictToken(url: string, id: string, secret: string): Promise<string> {
  const as: oauth.AuthorizationServer = { issuer: url, token_endpoint: `${url}/oauth/v1/access-token` };
  const client: oauth.Client = { client_id: id };
  const response = await oauth.clientCredentialsGrantRequest(as, client, oauth.ClientSecretBasic(secret), new URLSearchParams(),
    { [oauth.allowInsecureRequests]: true });
  return (await oauth.processClientCredentialsResponse(as, client, response)).access_token;
}

describe('client credentials (RFC 6749 section 2.3.1)', () => {
  const secrets = ['plain-secret-value', 'with-dash_and.dot~', 'per%cent%20literal', 'plus+sign+here', 'space in it', 'ümlaut-€-secret', 'colon:inside'];
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ clients: secrets.map((secret, i) => ({ id: `strict-${i}`, secret, scopes: all })) });
  });
  afterAll(() => server.stop());

  it.each(secrets.map((secret, i) => [secret, i] as const))('a strict client gets a token with the secret %j', async (secret, i) => {
    const token = await strictToken(server.url, `strict-${i}`, secret);
    expect((await api(server.url, token, 'POST', '/law/api/v1/census', census)).status).toBe(201);
  });

  it.each(secrets.map((secret, i) => [secret, i] as const))('the raw form of the service spec still works for %j', async (secret, i) => {
    await expect(getToken(server.url, { id: `strict-${i}`, secret })).resolves.toBeTruthy();
  });

  it('the token endpoint reached through a percent-encoded path answers as the token endpoint: OAuth errors, 405 with Allow', async () => {
    const basic = `Basic ${Buffer.from('strict-0:plain-secret-value').toString('base64')}`;
    const encoded = `${server.url}/oauth/v1/%61ccess-token`;
    const big = await fetch(encoded, { method: 'POST', headers: { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' }, body: 'x'.repeat(17 * 1024) });
    expect(big.status).toBe(413);
    expect(await big.json()).toMatchObject({ error: 'invalid_request' });
    const wrongType = await fetch(encoded, { method: 'POST', headers: { authorization: basic, 'content-type': 'text/plain' }, body: 'x' });
    expect(wrongType.status).toBe(400);
    expect(await wrongType.json()).toMatchObject({ error: 'invalid_request' });
    const get = await fetch(encoded, { headers: { authorization: basic } });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    expect(await get.json()).toMatchObject({ error: 'invalid_request' });
  });

  it('a wrong secret is still refused in both forms', async () => {
    await expect(strictToken(server.url, 'strict-0', 'plain-secret-valuE')).rejects.toThrow();
    await expect(getToken(server.url, { id: 'strict-3', secret: 'plus sign here' })).rejects.toThrow(/401/);
  });
});

describe('tokens of clients that changed', () => {
  it('refuses a token whose client was removed or given a new secret, and one issued in the future', async () => {
    const dataDir = await tempDir();
    const a = { id: 'a', secret: 'a-secret-value-1' };
    const b = { id: 'b', secret: 'b-secret-value-1' };
    let server = await startTestServer({ dataDir, clients: [{ ...a, scopes: all }, { ...b, scopes: all }] });
    const tokenA = await getToken(server.url, a);
    const tokenB = await getToken(server.url, b);
    await server.stop();

    // Restart: a keeps its secret, b is left out (removed).
    server = await startTestServer({ dataDir, clients: [{ ...a, scopes: all }] });
    expect((await api(server.url, tokenA, 'POST', '/law/api/v1/census', census)).status).toBe(201);
    expect((await api(server.url, tokenA, 'GET', '/local/v1/imports')).status).toBe(200);
    for (const path of ['/law/api/v1/deliveries', '/local/v1/imports']) {
      const res = await api(server.url, tokenB, 'GET', path);
      expect(res.status, path).toBe(401);
    }
    await server.stop();

    // Restart: a gets a new secret; its old token ends.
    server = await startTestServer({ dataDir, clients: [{ ...a, secret: 'a-secret-value-2', scopes: all }] });
    const refused = await api(server.url, tokenA, 'POST', '/law/api/v1/census', census);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toContain('invalid_token');
    const fresh = await getToken(server.url, { id: 'a', secret: 'a-secret-value-2' });
    expect((await api(server.url, fresh, 'POST', '/law/api/v1/census', census)).status).toBe(201);

    // A token signed with the server's own key but issued an hour from now.
    const key = Buffer.from((server.ctx.db.prepare("SELECT value FROM meta WHERE key = 'jwt_key'").get() as { value: string }).value, 'base64');
    const claims = JSON.parse(Buffer.from(fresh.split('.')[1]!, 'base64url').toString()) as { sv: string; scope: string };
    const now = Math.floor(Date.now() / 1000);
    const future = await new SignJWT({ scope: claims.scope, sv: claims.sv }).setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject('a').setIssuedAt(now + 3600).setExpirationTime(now + 7200).setJti('x').sign(key);
    expect((await api(server.url, future, 'POST', '/law/api/v1/census', census)).status).toBe(401);
    const present = await new SignJWT({ scope: claims.scope, sv: claims.sv }).setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject('a').setIssuedAt(now).setExpirationTime(now + 3600).setJti('y').sign(key);
    expect((await api(server.url, present, 'POST', '/law/api/v1/census', census)).status).toBe(201);
    await server.stop();
  });
});

describe('scopes of clients that changed', () => {
  it('lets a token use only the scopes its client holds now: a restart that takes one away takes it from earlier tokens (403 insufficient_scope)', async () => {
    const dataDir = await tempDir();
    const a = { id: 'a', secret: 'a-secret-value-1' };
    let server = await startTestServer({ dataDir, clients: [{ ...a, scopes: all }] });
    const before = await getToken(server.url, a);
    expect((await api(server.url, before, 'POST', '/law/api/v1/census', census)).status).toBe(201);
    await server.stop();

    // Restart: a keeps its secret (so its token stays valid) but only reads deliveries now.
    server = await startTestServer({ dataDir, clients: [{ ...a, scopes: ['deliveries:read'] }] });
    try {
      for (const [method, path, body] of [['POST', '/law/api/v1/census', census], ['POST', '/law/api/v1/payroll-submissions', []]] as const) {
        const refused = await api(server.url, before, method, path, body);
        expect(refused.status, path).toBe(403);
        const scope = path.endsWith('census') ? 'census:write' : 'submissions:write';
        // RFC 6750 section 3.1: the challenge names the scope the request needed.
        expect(refused.headers.get('www-authenticate')).toBe(`Bearer error="insufficient_scope", scope="${scope}"`);
        expect((refused.body as { errors: string[] }).errors).toEqual([
          `the client a does not hold the scope ${scope} that this endpoint needs (it was taken away after this token was issued); `
          + 'the client must be given that scope (the local server takes a client\'s scopes from --client, --clients-file or PAYROLL_SERVER_CLIENTS at start)',
        ]);
      }
      expect((await api(server.url, before, 'GET', '/law/api/v1/deliveries')).status).toBe(200);
      const after = await getToken(server.url, a);
      expect((await api(server.url, after, 'POST', '/law/api/v1/census', census)).status).toBe(403);
      await server.stop();

      // Restart: a holds census:write again, but a token issued without it does not carry it; a new one does.
      server = await startTestServer({ dataDir, clients: [{ ...a, scopes: ['census:write'] }] });
      const stale = await api(server.url, after, 'POST', '/law/api/v1/census', census);
      expect(stale.status).toBe(403);
      expect(stale.headers.get('www-authenticate')).toBe('Bearer error="insufficient_scope", scope="census:write"');
      expect((stale.body as { errors: string[] }).errors[0]).toContain('request a new token');
      expect((await api(server.url, await getToken(server.url, a), 'POST', '/law/api/v1/census', census)).status).toBe(201);
    } finally {
      await server.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('secrets at rest and logins under load', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ dataDir: join(await tempDir(), 'fresh', 'data') });
  });
  afterAll(() => server.stop());

  it('creates the data folder 0700 and its files 0600', async () => {
    await getToken(server.url);
    const mode = async (path: string) => (await stat(path)).mode & 0o777;
    expect(await mode(server.dataDir)).toBe(0o700);
    expect(await mode(join(server.dataDir, 'uploads'))).toBe(0o700);
    for (const file of [DB_FILE, `${DB_FILE}-wal`, `${DB_FILE}-shm`]) expect(await mode(join(server.dataDir, file)), file).toBe(0o600);
  });

  it('a hundred wrong logins at once do not hold up other requests', async () => {
    const token = await getToken(server.url);
    let loginsDone = 0;
    const logins = Array.from({ length: 100 }, () =>
      fetch(`${server.url}/oauth/v1/access-token`, {
        method: 'POST',
        headers: { authorization: `Basic ${Buffer.from('test-client:wrong-secret').toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: 'grant_type=client_credentials',
      }).then(async (res) => {
        expect(res.status).toBe(401);
        await res.arrayBuffer();
        loginsDone++;
      }));
    // Sent once the logins are all in flight: with hashing on the event loop, it waited for nearly all of them.
    await new Promise((r) => setTimeout(r, 50));
    const res = await api(server.url, token, 'GET', '/local/v1/imports');
    expect(res.status).toBe(200);
    expect(loginsDone).toBeLessThan(50);
    await Promise.all(logins);
    // A right secret after its first success is answered from memory, and still right.
    await expect(getToken(server.url)).resolves.toBeTruthy();
  });
});
