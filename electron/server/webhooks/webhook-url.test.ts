import { describe, expect, it } from 'vitest';
import { webhookUrlProblem } from './webhook-url';

describe('webhookUrlProblem', () => {
  it.each(['http://localhost:9/x', 'http://LOCALHOST.:9/x', 'http://127.0.0.2:9/x', 'https://[::1]:9/x', 'http://[::ffff:127.0.0.1]:9/x'])(
    'takes %s, which names this machine',
    (url) => expect(webhookUrlProblem(url, false)).toBeUndefined(),
  );
  // `*.localhost` would go to DNS, which may answer with any address.
  it.each(['http://hooks.localhost:9/x', 'http://127.0.0.1.evil.com/x', 'http://0.0.0.0:9/x', 'http://[::]:9/x', 'http://[::ffff:10.0.0.1]/x'])(
    'refuses %s without --allow-remote-webhooks',
    (url) => {
      expect(webhookUrlProblem(url, false)).toMatch(/--allow-remote-webhooks/);
      expect(webhookUrlProblem(url, true)).toBeUndefined();
    },
  );
});
