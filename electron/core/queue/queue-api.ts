/** What the queue needs of the API client: the handshake, the streamed PUT and the JSON batches. */
import type { ApiClient } from '../api';

export type QueueApi = Pick<ApiClient, 'requestGrants' | 'uploadFile' | 'sendBatch'> & {
  /**
   * Whether an upload address journaled earlier may still be used by this queue (absent: always). A service that is
   * the same service wherever it listens (the app's built-in server, which may come back on another port) gave its
   * addresses at the address it listened on then: another program may listen there now, so such an address is
   * dropped and a new one asked for from the service as it runs now.
   */
  grantedHere?(uploadUrl: string): boolean;
};
