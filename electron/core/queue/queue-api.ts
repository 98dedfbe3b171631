/** What the queue needs of the API client: the handshake, the streamed PUT and the JSON batches. */
import type { ApiClient } from '../api';

export type QueueApi = Pick<ApiClient, 'requestGrants' | 'uploadFile' | 'sendBatch'>;
