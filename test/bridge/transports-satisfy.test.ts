/**
 * Type-level checks, compiled by the type-check: the browser-mode client implements BridgeApi, the contract's job
 * states are the queue's, and the handlers' replies are the contract's. (The preload's own `satisfies` is in
 * electron/preload.) The runtime assertions keep vitest honest about the same facts.
 */
import { describe, expect, it } from 'vitest';
import { JOB_STATES as CONTRACT_STATES, type BridgeApi, type BridgeReply, type JobStateView } from '../../shared/bridge';
import type { BridgeHandlers } from '../../electron/core/bridge';
import { JOB_STATES as QUEUE_STATES, type JobState } from '../../electron/core/queue';
import { createHttpBridge } from '../../renderer/bridge/http-bridge';

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const statesAgree: Same<JobState, JobStateView> = true;
const httpIsBridge = createHttpBridge({ baseUrl: 'http://127.0.0.1:1' }) satisfies BridgeApi;
type HandlersAnswer = Awaited<ReturnType<BridgeHandlers['call']>>;
const repliesAgree: Same<HandlersAnswer, BridgeReply<Parameters<BridgeApi['call']>[0]>> = true;

describe('both transports and the core speak the contract', () => {
  it('keeps the job states of the contract and of the queue in step', () => {
    expect(statesAgree && repliesAgree).toBe(true);
    expect([...CONTRACT_STATES]).toEqual([...QUEUE_STATES]);
  });

  it('gives the browser-mode client the browser platform', () => {
    expect(httpIsBridge.platform).toBe('browser');
    httpIsBridge.close();
  });
});
