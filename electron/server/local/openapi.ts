/**
 * The OpenAPI 3.1 document of the whole surface (docs/service-decisions.md §8), served at /openapi.json.
 * Schemas come from the zod contract (openapi-schemas.ts); this file says which endpoint uses which,
 * with every status the decisions give.
 */
import { deliveriesQuerySchema, LIMITS, MAX_DELIVERY_ID } from '../../../shared';
import type { JsonSchema, SchemaName } from './openapi-schemas';
import { componentSchemas, queryParameters } from './openapi-schemas';
import { importsQuerySchema, REDELIVER_INTERVAL_MS, requestsQuerySchema } from './local-schemas';
import { UPLOAD_STATUS_HEADER } from '../files/upload-route';
import { BODY_STALL_MS } from '../http/body-stall';
import { MAX_HEADER_BYTES, MAX_URL_LENGTH, sizeText } from '../http/error-handling';
import { isLocalPath } from './fault-store';

type Operation = Record<string, unknown>;
type Response = { description: string; headers?: Record<string, unknown>; content?: Record<string, unknown> };

const ref = (name: SchemaName): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
const arrayOf = (name: SchemaName): JsonSchema => ({ type: 'array', items: ref(name) });
const json = (schema: JsonSchema) => ({ 'application/json': { schema } });
const ok = (description: string, schema?: JsonSchema, headers?: Record<string, unknown>): Response => ({
  description, ...(headers ? { headers } : {}), ...(schema ? { content: json(schema) } : {}),
});

const ERROR_MEANING: Record<number, string> = {
  400: 'validation failure; errors name each problem',
  401: 'bearer token missing, malformed, expired or wrongly signed (WWW-Authenticate: Bearer error="invalid_token")',
  403: 'the token lacks the scope this endpoint needs, or its client no longer holds it (WWW-Authenticate: Bearer error="insufficient_scope", scope="...")',
  404: 'unknown record',
  405: 'method not allowed on this path (Allow lists the methods)',
  409: 'conflict',
  413: 'body over the limit',
  415: 'unsupported Content-Type',
  422: 'well-formed, but breaks a business rule',
};

/**
 * Error responses with the error body; `overrides` gives endpoint-specific meanings. 500 and 503 are added to
 * every operation by withAnswersToAnyRequest.
 */
function errors(codes: number[], overrides: Record<number, string> = {}): Record<string, Response> {
  return Object.fromEntries(
    codes.map((code) => [String(code), ok(overrides[code] ?? ERROR_MEANING[code] ?? 'error', ref('ErrorBody'))]),
  );
}

/** Fastify's default body limit, which the server keeps for the endpoints that set none. */
const DEFAULT_BODY_LIMIT = 1024 * 1024;

/**
 * An operation that takes no body still reads one sent with it, as on every JSON endpoint: these are its answers.
 * (GET bodies are never read.)
 */
const UNWANTED_BODY: Record<number, string> = {
  400: 'a body was sent (this operation takes none) and is not valid JSON',
  413: `a body was sent (this operation takes none) over ${sizeText(DEFAULT_BODY_LIMIT)}`,
  415: 'a body was sent (this operation takes none) with a Content-Type other than JSON (application/json or a +json type)',
};

const LIMIT_PARAM = { minimum: 1, maximum: LIMITS.deliveriesMaxLimit, default: LIMITS.deliveriesDefaultLimit };
/** A delivery id: the server reads 15 digits at most. */
const positiveId = { type: 'integer', minimum: 1, maximum: MAX_DELIVERY_ID };

const bearer = (scope?: string) => [{ bearerAuth: scope ? [scope] : [] }];
const LOCAL_AUTH = 'Any valid access token of a configured client (no scope needed); only the caller\'s own data is shown.';

const EXAMPLES = {
  census: [{
    lastName: 'Silva', firstName: 'Ana', employeeRegistration: 'E-1001', hireDate: '2024-03-01', employeeStatus: 'ACTIVE',
    eligibleForBenefits: true, payCycle: 'MONTHLY', periodsPerYear: 12, grossAnnualSalary: 60000, salaryPerPeriod: 5000,
    standardHours: 40, hourlyRate: 28.85, timeType: 'FULL_TIME', payrollGroup: 'G1', payrollArea: 'SP', personnelSubArea: '0001',
  }],
  receipt: [{ lastName: 'Silva', firstName: 'Ana', ssn: '123-45-6789', employeeRegistration: 'E-1001', paymentDate: '2026-01-30', amount: 250.5 }],
};

function jsonImport(kind: 'census' | 'receipt'): Operation {
  const batch: SchemaName = kind === 'census' ? 'CensusBatch' : 'ReceiptBatch';
  const example = EXAMPLES[kind];
  return {
    operationId: `post${kind === 'census' ? 'Census' : 'Receipt'}`, tags: ['imports'], security: bearer(`${kind}:write`),
    summary: `Import a JSON batch of ${kind} records (at most 5 MB); processed asynchronously`,
    requestBody: {
      required: true,
      content: { 'application/json': { schema: ref(batch), example }, 'application/*+json': { schema: ref(batch), example } },
    },
    responses: {
      201: ok('accepted and queued; follow Location (or GET /local/v1/imports/{id}) for the result', ref('ImportCreated'), {
        Location: { description: '/local/v1/imports/{id}', schema: { type: 'string' } },
      }),
      ...errors([400, 401, 403, 413, 415, 422], { 422: `a repeated record in the batch (${kind === 'census' ? 'employeeRegistration' : 'employeeRegistration, paymentDate, amount'})` }),
    },
  };
}

const idParam = (description: string, schema: JsonSchema) => ({ name: 'id', in: 'path', required: true, description, schema });

function paths(): Record<string, Record<string, Operation>> {
  return {
    '/oauth/v1/access-token': {
      post: {
        operationId: 'getAccessToken', tags: ['auth'], security: [{ basicAuth: [] }],
        summary: 'OAuth 2.0 client credentials: a JWT valid expires_in seconds',
        requestBody: { required: true, content: { 'application/x-www-form-urlencoded': { schema: ref('TokenRequest') } } },
        responses: {
          200: ok('the token (Cache-Control: no-store)', ref('TokenResponse'), {
            'Cache-Control': { schema: { type: 'string', const: 'no-store' } },
          }),
          ...errors([400, 401, 413, 415], {
            400: 'the client is known, but the body is not application/x-www-form-urlencoded (any other well-formed Content-Type, '
              + 'or none; error invalid_request), grant_type is missing (error invalid_request) or not client_credentials '
              + '(error unsupported_grant_type)',
            401: 'no or bad Basic credentials (error invalid_client; WWW-Authenticate: Basic); checked before the body',
            // The client comes first (docs/service-decisions.md §5): with a wrong secret these are a 401 whatever the body.
            413: 'body over 16 KB (error invalid_request); refused while it is read, once the client credentials were found valid '
              + '(bad credentials are a 401 whatever the body)',
            415: 'a Content-Type header that is empty or not a media type at all (error invalid_request); refused before the body is read, '
              + 'once the client credentials were found valid (bad credentials are a 401 whatever the body). A well-formed but wrong type is a 400',
          }),
        },
      },
    },
    '/law/api/v1/census': { post: jsonImport('census') },
    '/law/api/v1/receipt': { post: jsonImport('receipt') },
    '/law/api/v1/payroll-submissions': {
      post: {
        operationId: 'postPayrollSubmissions', tags: ['files'], security: bearer('submissions:write'),
        summary: 'Start the file handshake: one upload grant per file, in request order',
        requestBody: {
          required: true,
          content: Object.fromEntries(['application/json', 'application/json-patch+json', 'application/*+json']
            .map((t) => [t, { schema: ref('SubmissionRequest') }])),
        },
        responses: {
          201: ok('the grants; a checksum whose earlier grant was never used gets a new grant (the old address stops working)', ref('SubmissionResponse')),
          ...errors([400, 401, 403, 413, 415, 422], {
            400: 'a metadata item is invalid; each message names the item index and field',
            422: 'a checksum equals that of a file already uploaded, or two items share one',
          }),
        },
      },
    },
    '/uploads/{fileId}': {
      put: {
        operationId: 'uploadFile', tags: ['files'], security: [],
        summary: 'Upload the CSV file to the pre-signed address of its grant (no Authorization header)',
        parameters: [
          { name: 'fileId', in: 'path', required: true, schema: { type: 'string' } },
          { name: 'expires', in: 'query', required: true, description: 'Unix seconds (at most 12 digits), given once; a missing, repeated or malformed one is a 403 that says which',
            schema: { type: 'string', pattern: '^\\d{1,12}$' } },
          { name: 'signature', in: 'query', required: true,
            description: 'hex HMAC-SHA256 of method, path, expiry and content type (64 hex digits, either case), given once; a missing, '
              + 'repeated or malformed one is a 403',
            schema: { type: 'string', pattern: '^[0-9a-fA-F]{64}$' } },
        ],
        requestBody: { required: true, content: { 'text/csv': { schema: { type: 'string', contentMediaType: 'text/csv', maxLength: LIMITS.fileBytes } } } },
        responses: {
          200: ok('stored; processing starts', {
            type: 'object', required: ['importId', 'status', 'size', 'checksum'], additionalProperties: false,
            properties: {
              importId: { type: 'string', description: 'the import the file became (GET /local/v1/imports/{id})' },
              status: { type: 'string', const: 'QUEUED' },
              size: { type: 'integer', minimum: 0, description: 'bytes received' },
              checksum: { type: 'string', pattern: '^[0-9a-f]{32}$', description: 'MD5 of the body, lower-case hex' },
            },
          }, { ETag: { description: '"<md5 of the body>"', schema: { type: 'string' } } }),
          ...errors([400, 403, 408, 413, 415, 507], {
            400: 'the MD5 of the body differs from the declared checksum, or the body ended early; nothing kept, the grant stays usable until it expires',
            408: `the body sent no byte for ${BODY_STALL_MS / 1000} s and was cut off; nothing kept, the address can be used again`,
            403: 'bad or missing signature, an expired address, an address never granted (there is no 404: an unknown address is refused '
              + 'like a forged one), or one replaced by a newer grant for the same checksum (also when that happened while the body arrived)',
            413: 'body over 100 MB; reading stops and nothing is kept',
            415: 'Content-Type is not text/csv',
            507: 'the server\'s disk is full: the body could not be stored, or its arrival not recorded; nothing kept, the address can be '
              + 'used again once space is freed (a problem that passes: try again later)',
          }),
          409: ok(`already uploaded (${UPLOAD_STATUS_HEADER}: uploaded), or another upload to this address is being received `
            + `(${UPLOAD_STATUS_HEADER}: in-progress)`,
          ref('ErrorBody'), {
            [UPLOAD_STATUS_HEADER]: {
              description: 'uploaded: the service holds this address\'s file, and only this with the expected ETag proves arrival; in-progress: '
                + 'try again after Retry-After',
              schema: { type: 'string', enum: ['uploaded', 'in-progress'] },
            },
            ETag: { description: `with ${UPLOAD_STATUS_HEADER} uploaded: "<md5 of the stored file>"`, schema: { type: 'string' } },
            'Import-Id': { description: `with ${UPLOAD_STATUS_HEADER} uploaded: the import the file became (GET /local/v1/imports/{id})`, schema: { type: 'string' } },
            'Retry-After': {
              description: `with ${UPLOAD_STATUS_HEADER} in-progress: seconds to wait (an upload that sends nothing for ${BODY_STALL_MS / 1000} s is cut off)`,
              schema: { type: 'integer', minimum: 1 },
            },
          }),
        },
      },
    },
    '/law/api/v1/deliveries': {
      get: {
        operationId: 'listDeliveries', tags: ['deliveries'], security: bearer('deliveries:read'),
        summary: 'Webhook delivery attempts, newest first',
        parameters: queryParameters(deliveriesQuerySchema, {
          status: '1 PENDING, 2 SUCCESS, 3 FAILED', maxRetries: 'keeps attempts with attemptCount <= maxRetries (0..5)',
          limit: `1..${LIMITS.deliveriesMaxLimit}, default ${LIMITS.deliveriesDefaultLimit}`,
        }, { status: { minimum: 1, maximum: 3 }, maxRetries: { minimum: 0, maximum: LIMITS.deliveryRetries }, limit: LIMIT_PARAM }),
        responses: { 200: ok('the attempts', arrayOf('DeliveryAttempt')), ...errors([400, 401, 403]) },
      },
    },
    '/law/api/v1/deliveries/{id}': {
      get: {
        operationId: 'getDelivery', tags: ['deliveries'], security: bearer('deliveries:read'),
        parameters: [idParam('delivery attempt id', positiveId)],
        responses: { 200: ok('the attempt', ref('DeliveryAttempt')), ...errors([400, 401, 403, 404], { 400: `the id is not a whole number from 1 to ${MAX_DELIVERY_ID}` }) },
      },
    },
    ...localPaths(),
    '/openapi.json': {
      get: {
        operationId: 'getOpenApi', tags: ['local'], security: [], summary: 'This document',
        responses: { 200: ok('OpenAPI 3.1', { type: 'object' }) },
      },
    },
  };
}

function localPaths(): Record<string, Record<string, Operation>> {
  const local = (operation: Operation): Operation => ({ tags: ['local'], security: bearer(), description: LOCAL_AUTH, ...operation });
  const deleted = (what: string) => ({ 204: { description: `${what} (also when there was none)` } });
  return {
    '/local/v1/health': {
      get: { operationId: 'health', tags: ['local'], security: [], responses: { 200: ok('the server is up', ref('Health')) } },
    },
    '/local/v1/imports': {
      get: local({
        operationId: 'listImports', summary: 'Import results (JSON batches and uploaded files), newest first',
        parameters: queryParameters(importsQuerySchema, { limit: `1..${LIMITS.deliveriesMaxLimit}, default ${LIMITS.deliveriesDefaultLimit}` }, { limit: LIMIT_PARAM }),
        responses: { 200: ok('the imports', arrayOf('ImportResult')), ...errors([400, 401]) },
      }),
    },
    '/local/v1/imports/{id}': {
      get: local({
        operationId: 'getImport', parameters: [idParam('import id', { type: 'string' })],
        responses: { 200: ok('the import', ref('ImportResult')), ...errors([401, 404]) },
      }),
    },
    '/local/v1/requests': {
      get: local({
        operationId: 'listRequests', summary: 'The request log, newest first: the caller\'s requests and those of no known client',
        parameters: queryParameters(requestsQuerySchema, { limit: `1..${LIMITS.deliveriesMaxLimit}, default ${LIMITS.deliveriesDefaultLimit}` },
          { limit: LIMIT_PARAM, status: { minimum: 0, maximum: 599 } }),
        responses: { 200: ok('log rows (the newest 10,000 are kept)', arrayOf('RequestLogEntry')), ...errors([400, 401]) },
      }),
    },
    '/local/v1/webhook': {
      get: local({
        operationId: 'getWebhook', summary: 'The webhook registration; the secret is never shown',
        responses: { 200: ok('url null when none is registered', ref('WebhookState')), ...errors([401]) },
      }),
      put: local({
        operationId: 'putWebhook', summary: 'Register (replace) the webhook; without a secret one is generated and answered once',
        requestBody: { required: true, content: json(ref('WebhookRegistration')) },
        responses: { 200: ok('registered', ref('WebhookState')), ...errors([400, 401, 413, 415]) },
      }),
      delete: local({ operationId: 'deleteWebhook', responses: { ...deleted('unregistered'), ...errors([400, 401, 413, 415], UNWANTED_BODY) } }),
    },
    '/local/v1/faults': {
      get: local({ operationId: 'getFaults', responses: { 200: ok('the rules', ref('FaultRules')), ...errors([401]) } }),
      put: local({
        operationId: 'putFaults', summary: 'Replace the fault injection rules (kept in memory; a restart clears them)',
        requestBody: { required: true, content: json(ref('FaultRules')) },
        responses: { 200: ok('the rules now in force', ref('FaultRules')), ...errors([400, 401, 413, 415]) },
      }),
      delete: local({ operationId: 'deleteFaults', responses: { ...deleted('all rules removed'), ...errors([400, 401, 413, 415], UNWANTED_BODY) } }),
    },
    '/local/v1/deliveries/{id}/redeliver': {
      post: local({
        operationId: 'redeliver', summary: 'Send the event of a delivery attempt again now, as a new RETRY attempt: its next retry, brought forward; a 2xx ends its retries',
        parameters: [idParam('delivery attempt id', positiveId)],
        responses: {
          202: ok('the new attempt, PENDING', ref('DeliveryAttempt')),
          ...errors([400, 401, 404, 409, 413, 415], {
            ...UNWANTED_BODY,
            400: `the id is not a whole number from 1 to ${MAX_DELIVERY_ID}, or ${UNWANTED_BODY[400]}`,
            409: 'the client has no webhook registered (it was removed since): nothing is sent and no attempt is recorded; '
              + 'register a webhook URL first (PUT /local/v1/webhook)',
          }),
          429: ok(`the event of this attempt was sent again less than ${REDELIVER_INTERVAL_MS / 1000} s ago (by any attempt of it)`, ref('ErrorBody'), {
            'Retry-After': { description: 'seconds until it may be sent again', schema: { type: 'integer', minimum: 1 } },
          }),
        },
      }),
    },
  };
}

const TRACE_HEADER = { 'X-Trace-Id': { $ref: '#/components/headers/TraceId' } };

function withTraceHeaders(all: Record<string, Record<string, Operation>>): Record<string, Record<string, Operation>> {
  for (const item of Object.values(all)) {
    for (const op of Object.values(item)) {
      for (const response of Object.values(op.responses as Record<string, Response>)) response.headers = { ...response.headers, ...TRACE_HEADER };
    }
  }
  return all;
}

const WEBHOOK_HEADERS = [
  ['webhook-id', 'the event id; the same on every attempt, so repeats can be dropped'],
  ['webhook-timestamp', 'Unix seconds of this attempt'],
  ['webhook-signature', 'v1,<base64 HMAC-SHA256 of "id.timestamp.body"> with the registered whsec_ secret'],
].map(([name, description]) => ({ name, in: 'header', required: true, description, schema: { type: 'string' } }));

let cached: Record<string, unknown> | undefined;

/**
 * Every path answers a method it does not list with 405 and an Allow header; OpenAPI cannot describe a method
 * that has no operation, so each operation lists the 405 its path gives to the others.
 */
function withMethodNotAllowed(all: Record<string, Record<string, Operation>>): Record<string, Record<string, Operation>> {
  return Object.fromEntries(Object.entries(all).map(([path, operations]) => {
    const methods = Object.keys(operations).map((m) => m.toUpperCase());
    if (methods.includes('GET')) methods.push('HEAD');
    const response = {
      ...ok(`any other method than ${methods.join(', ')} on this path`, ref('ErrorBody')),
      headers: { Allow: { description: 'the methods this path takes', schema: { type: 'string' } } },
    };
    return [path, Object.fromEntries(Object.entries(operations).map(([method, op]) =>
      [method, { ...op, responses: { ...(op.responses as Record<string, unknown>), 405: response } }]))];
  }));
}

/**
 * Answers any request can get, whatever its operation: refusals before its route runs (the 415 of a compressed body
 * once its credentials were checked), which depend on the request's form, size and pace or on the server's state
 * (stopping; fault rules, which never apply under /local/v1), and the 500 of an unexpected failure.
 */
function answersToAnyRequest(path: string): Record<string, string> {
  const faulted = !isLocalPath(path);
  return {
    400: 'the request is not valid HTTP (the HTTP parser refused it before any route; the connection is closed), an HTTP/1.1 request has no Host header, '
      + 'the request has more than one Host header, its Transfer-Encoding does not end in chunked or comes in an HTTP/1.0 request (the connection is closed), '
      + 'or its URL holds a bad percent-encoding',
    408: 'the request was not received in time',
    414: `the URL (path and query) is over ${MAX_URL_LENGTH} characters`,
    415: 'a Content-Encoding other than identity (a compressed body is not unpacked; the answer has Accept-Encoding: identity), refused before '
      + 'any of the body is read, once the checks that need no body passed: a request without valid credentials gets its 401 (an upload '
      + 'to a bad address its 403) whatever its body',
    417: 'an Expect header other than 100-continue (100-continue itself is met: the interim answer comes once the checks that need no body passed)',
    431: `the request line and headers are over ${sizeText(MAX_HEADER_BYTES)} together`,
    500: `unexpected server failure${faulted ? ', or a fault injected with errorStatus 500 (see /local/v1/faults)' : ''}; the body carries traceId`,
    501: 'a Transfer-Encoding with a coding other than chunked (gzip, chunked): chunked is the only transfer coding implemented',
    503: faulted
      ? 'a fault injected with errorStatus 503, the default (see /local/v1/faults), or the server is stopping (every request is refused then)'
      : 'the server is stopping (every request is refused then; fault rules never apply under /local/v1)',
    505: 'an HTTP version other than HTTP/1.1 and HTTP/1.0 in the request line (HTTP/2.0, HTTP/0.9, HTTP/1.2...); the connection is closed',
  };
}

/**
 * The operations that take exactly the query parameters they list (electron/server/http/query.ts): the local
 * server's own endpoints, and the delivery audit. OpenAPI cannot say "no other parameter", so their 400 says it.
 */
const checksQuery = (path: string) => path.startsWith('/local/v1/') || path === '/openapi.json' || path === '/law/api/v1/deliveries';

function queryRefusal(op: Operation): string {
  const listed = ((op.parameters ?? []) as { in: string }[]).some((p) => p.in === 'query');
  return listed
    ? 'a query parameter this operation does not list, one without a name (`?=1`), or one given more than once'
    : 'any query parameter (this operation takes none; an empty piece such as a lone `&` is no parameter)';
}

/** Each operation that checks its query lists that 400, next to its own meanings of 400 when it has any. */
function withQueryRule(all: Record<string, Record<string, Operation>>): Record<string, Record<string, Operation>> {
  return Object.fromEntries(Object.entries(all).map(([path, operations]) => [path, !checksQuery(path) ? operations : Object.fromEntries(
    Object.entries(operations).map(([method, op]) => {
      const responses = op.responses as Record<string, Response>;
      const own = responses[400];
      const refusal = queryRefusal(op);
      const response = own ? { ...own, description: `${own.description}; or ${refusal}` } : ok(refusal, ref('ErrorBody'));
      return [method, { ...op, responses: { ...responses, 400: response } }];
    }),
  )]));
}

/** Each operation lists them; where it gives one a meaning of its own (the upload's 408), both meanings are told. */
function withAnswersToAnyRequest(all: Record<string, Record<string, Operation>>): Record<string, Record<string, Operation>> {
  return Object.fromEntries(Object.entries(all).map(([path, operations]) => [path, Object.fromEntries(
    Object.entries(operations).map(([method, op]) => {
      const responses: Record<string, Response> = { ...(op.responses as Record<string, Response>) };
      for (const [code, meaning] of Object.entries(answersToAnyRequest(path))) {
        const own = responses[code];
        // A fresh response object each time: withTraceHeaders adds headers to each in place.
        responses[code] = own ? { ...own, description: `${own.description}; or ${meaning}` } : ok(meaning, ref('ErrorBody'));
      }
      return [method, { ...op, responses }];
    }),
  )]));
}

/**
 * The document; `baseUrl` (the address the request for it was sent to) becomes its server. Built once: the contract
 * does not change while running; only the server differs between requests.
 */
export function openApiDocument(baseUrl: string): Record<string, unknown> {
  cached ??= buildDocument();
  const { openapi, info, jsonSchemaDialect, ...rest } = cached;
  return { openapi, info, jsonSchemaDialect, ...(baseUrl ? { servers: [{ url: baseUrl }] } : {}), ...rest };
}

function buildDocument(): Record<string, unknown> {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Payroll Data Import Service (local server)', version: '1.0.0',
      description: 'The service API (/oauth, /law, /uploads) and the local server\'s own extensions (/local/v1). '
        + 'Every error uses the error body; every response carries X-Trace-Id.',
    },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    tags: ['auth', 'imports', 'files', 'deliveries', 'local'].map((name) => ({ name })),
    paths: withTraceHeaders(withAnswersToAnyRequest(withMethodNotAllowed(withQueryRule(paths())))),
    webhooks: {
      importFinished: {
        post: {
          operationId: 'importFinished', summary: 'import.processed or import.rejected, signed as Standard Webhooks 1.0',
          parameters: WEBHOOK_HEADERS,
          requestBody: { required: true, content: json(ref('WebhookEvent')) },
          responses: { '2XX': { description: 'delivered (within 5 s); anything else is retried up to 5 times' } },
        },
      },
    },
    components: {
      schemas: componentSchemas(),
      securitySchemes: {
        basicAuth: { type: 'http', scheme: 'basic', description: 'client id and secret; only for the token endpoint' },
        bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'from /oauth/v1/access-token; the listed role is the scope needed' },
      },
      headers: { TraceId: { description: 'the request\'s trace id (quote it to support)', schema: { type: 'string' } } },
    },
  };
}
