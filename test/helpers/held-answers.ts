/**
 * The real API client with the answers of one of its calls held back: the answer the real server gave reaches the
 * queue only once the test opens the gate (the disk filled, the journal's lock taken, the file changed), however
 * slowly a loaded machine gets the test there. The request itself goes out and is answered as usual.
 */
import type { QueueApi } from '../../electron/core/queue/queue-api';

export type Gate = { opened: Promise<void>; open(): void };

/** A promise the test resolves (open) when it is ready. */
export function gate(): Gate {
  let open = (): void => undefined;
  const opened = new Promise<void>((done) => {
    open = done;
  });
  return { opened, open };
}

type HeldCall = 'requestGrants' | 'uploadFile' | 'sendBatch';

/** `api`, whose `call` answers only once `opened` has resolved. */
export function answersAfter(api: QueueApi, opened: Promise<void>, call: HeldCall): QueueApi {
  const real = api[call] as (...args: unknown[]) => Promise<unknown>;
  const held = async (...args: unknown[]) => {
    const answer = await real.apply(api, args);
    await opened;
    return answer;
  };
  return { ...api, [call]: held };
}
