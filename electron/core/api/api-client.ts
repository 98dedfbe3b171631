/** The client of the Payroll Data Import Service: tokens, JSON imports, the file handshake, uploads, deliveries. */
import { z } from 'zod';
import type { DeliveryAttempt, FileMetadata, ImportCreated, ImportResult, RecordKind, UploadGrant } from '../../../shared';
import {
  RECORD_KINDS, deliveryAttemptSchema, importCreatedSchema, importResultSchema, submissionResponseSchema, tokenResponseSchema,
} from '../../../shared';
import type { Logger } from '../../lib/logger';
import { isSignInFailure, NetworkError, outcomeUnknown, sentAs, signInFailure, UnexpectedResponseError } from './api-errors';
import type { CredentialsSource } from '../credentials/resolve-credentials';
import type { HttpResponse } from './http-transport';
import { createTransport } from './http-transport';
import { createProxyResolver } from './proxy-config';
import type { RetryMode, RetryOptions } from './retry-policy';
import { DEFAULT_RETRY, doNotRetry, mayHaveBeenTaken, withRetries } from './retry-policy';
import { errorFromResponse, parseResponse, responseHeader } from './responses';
import { createTokenCache } from './token-cache';
import type { UploadOptions, UploadResult } from './upload-file';
import { uploadFile } from './upload-file';
import { checkUrl, joinUrl } from './url-policy';

export type ApiCredentials = { clientId: string; clientSecret: string; source?: CredentialsSource };

export type ApiClientOptions = {
  /** e.g. https://api.example.com or http://127.0.0.1:8787 (plain http only to loopback, else InsecureUrlError). */
  baseUrl: string;
  /**
   * Asked lazily, at each token request; the secret is never kept, logged or put in an error. `source`: where they
   * came from, told with a refusal (sentAs), since what the clerk can do about it depends on it.
   */
  credentials: () => Promise<ApiCredentials>;
  /** Explicit proxy for every target (loopback too); '' for none. Absent: HTTPS_PROXY/HTTP_PROXY minus NO_PROXY. */
  proxy?: string;
  logger?: Logger;
  /** Default { retries: 4, baseDelayMs: 500, maxDelayMs: 15000 }. */
  retry?: RetryOptions;
  /** Per request, default 30000; for uploads an idle timeout (no bytes moving) instead. */
  timeoutMs?: number;
  /** Extra trusted CA certificates (PEM), e.g. a company's TLS-inspecting proxy, or a test server's own. */
  ca?: string | Buffer;
};

/**
 * A grant as received: the contract's fields, plus the service's own clock when it answered (the answer's `Date`
 * header, epoch ms; absent when it had none or an unreadable one). `expiration` minus `serviceDate` is the address's
 * life by the service's clock alone, which a clock difference between this computer and the service cannot spoil.
 */
export type ReceivedGrant = UploadGrant & { serviceDate?: number };

export type DeliveriesFilter = { status?: number; maxRetries?: number; limit?: number };

export type ApiClient = {
  getToken(): Promise<string>;
  /** POST census/receipt. Not idempotent: an error after which the service may hold the records is isOutcomeUnknown. */
  sendBatch(kind: RecordKind, records: unknown[]): Promise<ImportCreated>;
  /** POST payroll-submissions: one grant per item, in order. */
  requestGrants(items: FileMetadata[], signal?: AbortSignal): Promise<ReceivedGrant[]>;
  /** PUT the file to a grant's address; the etag is the server's MD5 of what it received (quotes removed). */
  uploadFile(uploadUrl: string, filePath: string, opts: UploadOptions): Promise<UploadResult>;
  listDeliveries(query?: DeliveriesFilter): Promise<DeliveryAttempt[]>;
  getDelivery(id: number): Promise<DeliveryAttempt>;
  /** GET /local/v1/imports/:id (local server only). */
  getImport(id: string): Promise<ImportResult>;
  /**
   * POST /local/v1/deliveries/:id/redeliver (local server only): the new attempt. Sent once: the clerk asked for it,
   * and the server's 429 (asked again too soon) is said, not waited out and sent again.
   */
  redeliver(id: number): Promise<DeliveryAttempt>;
  /** Retires the client: idle connections close now, requests under way finish first (Transport.close). */
  close(): void;
};

const TOKEN_PATH = '/oauth/v1/access-token';
const MAX_ANSWER_BYTES = 16 * 1024 * 1024;

type Call<S extends z.ZodType> = {
  method: 'GET' | 'POST';
  path: string;
  query?: Record<string, number | undefined>;
  body?: unknown;
  mode: RetryMode;
  expect: number;
  schema: S;
  /** Stops the request and its retries (the uploader is stopping). */
  signal?: AbortSignal;
  /** Sent once, whatever the answer: no retries (a 401's renewed token aside, which the service refused unread). */
  once?: true;
};

function checkRetry(retry: RetryOptions): RetryOptions {
  const ok = Number.isInteger(retry.retries) && retry.retries >= 0 && retry.baseDelayMs >= 0 && retry.maxDelayMs >= retry.baseDelayMs;
  if (!ok) throw new RangeError('retry needs whole retries >= 0 and 0 <= baseDelayMs <= maxDelayMs');
  return retry;
}

export function createApiClient(options: ApiClientOptions): ApiClient {
  const base = checkUrl(options.baseUrl, 'the base URL');
  const transport = createTransport({ proxy: createProxyResolver(options.proxy), ...(options.ca ? { ca: options.ca } : {}) });
  const retry = checkRetry(options.retry ?? DEFAULT_RETRY);
  const timeoutMs = options.timeoutMs ?? 30_000;
  const log = options.logger;

  const send = async (
    method: string, url: URL, headers: Record<string, string>, body?: Buffer, fresh = false, signal?: AbortSignal,
  ): Promise<HttpResponse> => {
    const res = await transport.send({
      method, url, headers: { accept: 'application/json', ...headers }, freshConnection: fresh,
      ...(body ? { body } : {}), ...(signal ? { signal } : {}),
      timeout: { ms: timeoutMs, kind: 'total' }, maxResponseBytes: MAX_ANSWER_BYTES,
    });
    log?.debug(`${method} ${url.pathname} -> ${res.status} (trace ${responseHeader(res, 'x-trace-id') ?? 'none'})`);
    return res;
  };

  const tokens = createTokenCache(() =>
    withRetries(`POST ${TOKEN_PATH}`, 'safe', retry, log, async () => {
      const { clientId, clientSecret, source } = await options.credentials();
      if (!clientId || clientId.includes(':')) throw new Error('the client id must be non-empty and must not contain ":"');
      const basic = Buffer.from(`${clientId}:${clientSecret}`).toString('base64');
      const res = await send('POST', joinUrl(base, TOKEN_PATH), {
        authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded',
      }, Buffer.from('grant_type=client_credentials'));
      if (res.status !== 200) throw sentAs(errorFromResponse(res, `POST ${TOKEN_PATH}`), { clientId, ...(source ? { source } : {}) });
      const body = parseResponse(res, tokenResponseSchema, `POST ${TOKEN_PATH}`);
      log?.debug(`new access token for ${clientId}, valid ${body.expires_in} s`);
      return { accessToken: body.access_token, expiresInSeconds: body.expires_in };
    }));

  const tokenOnce = () => tokens.get().catch((error: unknown) => {
    // Its own retries are done: the call's retries must not repeat them. Marked, since the call's own request did not
    // go out: whatever the token request's fate, the call was not made.
    throw typeof error === 'object' && error !== null ? doNotRetry(signInFailure(error)) : error;
  });

  /** The answer's value and the response it came in (for its headers). */
  async function exchange<S extends z.ZodType>(spec: Call<S>): Promise<{ value: z.output<S>; res: HttpResponse }> {
    const url = joinUrl(base, spec.path);
    for (const [key, value] of Object.entries(spec.query ?? {})) if (value !== undefined) url.searchParams.set(key, String(value));
    const request = `${spec.method} ${spec.path}`;
    const body = spec.body === undefined ? undefined : Buffer.from(JSON.stringify(spec.body));
    const headers = (token: string) => ({
      authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}),
    });
    let renewed = false;
    try {
      return await withRetries(request, spec.mode, spec.once ? { ...retry, retries: 0 } : retry, log, async () => {
        let token = await tokenOnce();
        const fresh = spec.mode === 'unsafe';
        let res = await send(spec.method, url, headers(token), body, fresh, spec.signal);
        if (res.status === 401 && !renewed) {
          // A 401 means the token was refused before anything was done, so even a POST may go again.
          renewed = true;
          tokens.invalidate(token);
          log?.info(`${request}: the token was refused; retrying once with a new one`);
          token = await tokenOnce();
          res = await send(spec.method, url, headers(token), body, fresh, spec.signal);
        }
        // A 403: the token lacks a scope. A token's scopes are those its client had when it was issued, so the next
        // call asks for a new one: a scope given to the client meanwhile is then seen (Retry now of a held file).
        if (res.status === 403) tokens.invalidate(token);
        if (res.status !== spec.expect) throw errorFromResponse(res, request);
        return { value: parseResponse(res, spec.schema, request), res };
      }, spec.signal);
    } catch (error) {
      if (spec.mode !== 'unsafe' || isSignInFailure(error) || !mayHaveBeenTaken(error)) throw error;
      if (error instanceof NetworkError) {
        throw outcomeUnknown(new NetworkError(
          `${error.message}: the outcome is unknown, the server may have received the request; check its imports before sending it again`,
          { ...(error.code ? { code: error.code } : {}), ...(error.reason ? { reason: error.reason } : {}), ...(error.address ? { address: error.address } : {}),
          requestSent: true, cause: error },
        ));
      }
      throw error instanceof Error ? outcomeUnknown(error) : error;
    }
  }

  const call = async <S extends z.ZodType>(spec: Call<S>): Promise<z.output<S>> => (await exchange(spec)).value;

  return {
    getToken: () => tokens.get(),

    sendBatch(kind, records) {
      if (!RECORD_KINDS.includes(kind)) return Promise.reject(new TypeError(`unknown record kind ${String(kind)}; use census or receipt`));
      return call({ method: 'POST', path: `/law/api/v1/${kind}`, body: records, mode: 'unsafe', expect: 201, schema: importCreatedSchema });
    },

    async requestGrants(items, signal) {
      const path = '/law/api/v1/payroll-submissions';
      const { value: grants, res } = await exchange({
        method: 'POST', path, body: items, mode: 'safe', expect: 201, schema: submissionResponseSchema, ...(signal ? { signal } : {}),
      });
      if (grants.length !== items.length) {
        throw new UnexpectedResponseError({
          status: 201, request: `POST ${path}`, messages: [`asked for ${items.length} grants, got ${grants.length}`],
        });
      }
      const serviceDate = Date.parse(responseHeader(res, 'date') ?? '');
      return Number.isNaN(serviceDate) ? grants : grants.map((grant) => ({ ...grant, serviceDate }));
    },

    uploadFile: (uploadUrl, filePath, opts) => uploadFile(transport, timeoutMs, uploadUrl, filePath, opts),

    listDeliveries: (query = {}) =>
      call({
        method: 'GET', path: '/law/api/v1/deliveries', mode: 'safe', expect: 200, schema: z.array(deliveryAttemptSchema),
        query: { status: query.status, maxRetries: query.maxRetries, limit: query.limit },
      }),

    getDelivery: (id) =>
      call({ method: 'GET', path: `/law/api/v1/deliveries/${encodeURIComponent(String(id))}`, mode: 'safe', expect: 200, schema: deliveryAttemptSchema }),

    getImport: (id) =>
      call({ method: 'GET', path: `/local/v1/imports/${encodeURIComponent(id)}`, mode: 'safe', expect: 200, schema: importResultSchema }),

    redeliver: (id) =>
      call({
        method: 'POST', path: `/local/v1/deliveries/${encodeURIComponent(String(id))}/redeliver`, mode: 'unsafe', once: true,
        expect: 202, schema: deliveryAttemptSchema,
      }),

    close: () => transport.close(),
  };
}
