import { expect, it } from 'vitest';
import type { DeliveryAttempt } from '../../shared';
import { deliveriesTable } from './deliveries-command';

const attempt = (fields: Partial<DeliveryAttempt>): DeliveryAttempt => ({
  id: 1, type: 1, status: 2, httpStatusCode: 204, durationMs: 12, attemptCount: 0, createdAt: '2026-11-22T10:00:00',
  eventId: 'msg_1', eventType: 'import.processed', failure: null, ...fields,
});

it('lists each try with why it failed, and nothing there for a delivered one or a service that does not say', () => {
  const lines = deliveriesTable([
    attempt({ id: 2, type: 2, status: 3, httpStatusCode: null, durationMs: 5000, attemptCount: 1, failure: 'no answer within 5 s' }),
    attempt({}),
    attempt({ id: 3, status: 3, httpStatusCode: 500, failure: undefined }),
  ]).split('\n');
  expect(lines[0]).toMatch(/^ID +TYPE +STATUS +HTTP +MS +RETRIES +CREATED \(UTC\) +EVENT +WHY IT FAILED$/);
  expect(lines[1]).toMatch(/^2 +RETRY +FAILED +- +5000 +1 +2026-11-22T10:00:00 +import\.processed +no answer within 5 s$/);
  expect(lines[2]).toMatch(/^1 +NEW +SUCCESS +204 +12 +0 +2026-11-22T10:00:00 +import\.processed$/);
  expect(lines[3]).toMatch(/^3 +NEW +FAILED +500 .*import\.processed$/);
});
