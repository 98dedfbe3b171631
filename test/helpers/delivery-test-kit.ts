/** Shared steps of the delivery tests: a census import, the audit list, signature checks. */
import { Webhook } from 'standardwebhooks';
import { expect } from 'vitest';
import type { DeliveryAttempt } from '../../shared';
import { deliveryAttemptSchema } from '../../shared';
import { api, eventually } from './local-server';
import type { ReceivedRequest } from './webhook-receiver';

let registration = 0;

/** A valid one-record census batch with a fresh employee registration. */
export function censusBatch(): unknown[] {
  registration += 1;
  return [{ lastName: 'Doe', firstName: 'Jane', employeeRegistration: `E-${registration}`, hireDate: '2024-01-15', employeeStatus: 'ACTIVE' }];
}

/** Posts a census batch; returns its import id. */
export async function importCensus(url: string, token: string): Promise<string> {
  const res = await api(url, token, 'POST', '/law/api/v1/census', censusBatch());
  expect(res.status).toBe(201);
  return (res.body as { id: string }).id;
}

/** The client's delivery attempts, oldest first, each checked against the contract. */
export async function attempts(url: string, token: string, query = ''): Promise<DeliveryAttempt[]> {
  const res = await api(url, token, 'GET', `/law/api/v1/deliveries${query}`);
  expect(res.status).toBe(200);
  return (res.body as unknown[]).map((item) => deliveryAttemptSchema.strict().parse(item)).reverse();
}

/** Polls until `count` attempts exist and none is PENDING. */
export function settledAttempts(url: string, token: string, count: number, timeoutMs?: number): Promise<DeliveryAttempt[]> {
  return eventually(async () => {
    const list = await attempts(url, token);
    return list.length === count && list.every((a) => a.status !== 1) ? list : undefined;
  }, timeoutMs);
}

/** The Standard Webhooks payload of a request, verified with the reference package. */
export function verified(secret: string, request: ReceivedRequest): unknown {
  return new Webhook(secret).verify(request.body, request.headers);
}
