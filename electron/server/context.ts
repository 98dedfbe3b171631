/** What every part of the local server is handed: the database, options, keys and the shared engines. */
import type { Logger } from '../lib/logger';
import type { Db } from './db/database';
import type { GroupCommit } from './db/group-commit';
import type { ServerOptions } from './options';
import type { Processor } from './processing/processor';
import type { DeliveryEngine } from './webhooks/delivery-engine';

export type ServerKeys = {
  /** HS256 key of the access tokens. */
  jwt: Uint8Array;
  /** HMAC key of the upload addresses. */
  upload: Buffer;
};

export type ServerContext = {
  db: Db;
  options: ServerOptions;
  logger: Logger;
  keys: ServerKeys;
  /** Where uploaded files are kept. */
  uploadsDir: string;
  /** Ids of the files whose upload is being received now (one at a time per address). */
  receiving: Set<string>;
  /** `http(s)://host:port` of the bind address once listening; absolute URLs in answers use it when the request's Host is not this machine (http/request-base-url.ts). */
  baseUrl(): string;
  processor: Processor;
  deliveries: DeliveryEngine;
  /** Writes that must be committed before a request is answered, grouped across concurrent requests. */
  writes: GroupCommit;
};
