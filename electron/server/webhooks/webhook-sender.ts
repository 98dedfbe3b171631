/**
 * One webhook POST, signed as Standard Webhooks 1.0: node:http(s) directly so that redirects are never
 * followed, the time-out covers the whole answer, and the receiver's body is read only up to a bound.
 */
import { createHmac } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { STOPPED_FAILURE } from './deliveries-repo';
import { webhookSendRefusal } from './webhook-url';

export const WEBHOOK_USER_AGENT = 'PayrollLocalServer-Webhooks/1.0';
/** Bytes of the receiver's answer read (and discarded); the rest is not waited for. */
export const MAX_ANSWER_BYTES = 64 * 1024;

/** `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, keyed with the base64 part of a `whsec_` secret. */
export function signWebhook(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice(6) : secret, 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64')}`;
}

export function webhookHeaders(secret: string, id: string, body: string, now: Date): Record<string, string> {
  const timestamp = Math.floor(now.getTime() / 1000);
  return {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(body)),
    'user-agent': WEBHOOK_USER_AGENT,
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signWebhook(secret, id, timestamp, body),
  };
}

/**
 * `answered`: the receiver sent a complete answer (or its first MAX_ANSWER_BYTES) in time;
 * `timeout`, `error`: no usable answer (httpStatus null); `aborted`: the engine stopped;
 * `refused`: the URL is not one this server may send to (detail says why); no connection was made.
 */
export type SendOutcome = {
  kind: 'answered' | 'timeout' | 'error' | 'aborted' | 'refused';
  httpStatus: number | null;
  durationMs: number;
  detail?: string;
};

/** Why an attempt did not deliver, in words for the audit (`failure`); null when it did. */
export function failureOf(outcome: SendOutcome, timeoutMs: number): string | null {
  switch (outcome.kind) {
    case 'answered':
      return outcome.httpStatus !== null && outcome.httpStatus >= 200 && outcome.httpStatus < 300
        ? null
        : `the endpoint answered ${outcome.httpStatus ?? 'without a status'}; only a 2xx answer counts as delivered`;
    case 'timeout':
      return `no answer within ${timeoutMs / 1000} s`;
    case 'error':
      return `no answer: ${outcome.detail ?? 'the connection failed'}`;
    case 'aborted':
      return STOPPED_FAILURE;
    case 'refused':
      return `not sent: ${outcome.detail ?? 'the URL may not be sent to'}`;
  }
}

export type SendRequest = {
  url: string; headers: Record<string, string>; body: string; timeoutMs: number; signal: AbortSignal;
  /** The running server's --allow-remote-webhooks: without it only this machine is sent to. */
  allowRemote: boolean;
};

/**
 * Sends one attempt. The URL is checked first by the same rules as a registration (webhook-url.ts), under the
 * running server's policy: a URL stored by a start with --allow-remote-webhooks is refused without connecting.
 */
export function sendWebhook(req: SendRequest): Promise<SendOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  return new Promise<SendOutcome>((resolve) => {
    const checked = webhookSendRefusal(req.url, req.allowRemote);
    if ('reason' in checked) {
      resolve({ kind: 'refused', httpStatus: null, durationMs: 0, detail: checked.reason });
      return;
    }
    const target = new URL(checked.url);
    let settled = false;
    const finish = (outcome: SendOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.signal.removeEventListener('abort', onAbort);
      request.destroy();
      resolve(outcome);
    };
    const client = target.protocol === 'https:' ? https : http;
    // agent false: a fresh connection per attempt, so one hanging receiver socket never holds up another attempt.
    const request = client.request(target, { method: 'POST', headers: req.headers, agent: false });
    // The time-out is the decided value of a timed-out attempt, whatever the timer's jitter.
    const timer = setTimeout(() => finish({ kind: 'timeout', httpStatus: null, durationMs: Math.max(req.timeoutMs, elapsed()) }), req.timeoutMs);
    const onAbort = () => finish({ kind: 'aborted', httpStatus: null, durationMs: elapsed(), detail: 'stopped' });
    req.signal.addEventListener('abort', onAbort);
    if (req.signal.aborted) onAbort();

    request.on('error', (error) => finish({ kind: 'error', httpStatus: null, durationMs: elapsed(), detail: error.message }));
    request.on('response', (response) => {
      const status = response.statusCode ?? 0;
      let read = 0;
      response.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read >= MAX_ANSWER_BYTES) finish({ kind: 'answered', httpStatus: status, durationMs: elapsed() });
      });
      response.on('end', () => finish({ kind: 'answered', httpStatus: status, durationMs: elapsed() }));
      response.on('error', (error) => finish({ kind: 'error', httpStatus: null, durationMs: elapsed(), detail: error.message }));
      response.on('close', () => {
        if (!response.complete) finish({ kind: 'error', httpStatus: null, durationMs: elapsed(), detail: 'the answer was cut off' });
      });
    });
    request.end(req.body);
  });
}
