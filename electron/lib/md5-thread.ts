/**
 * MD5 on a worker thread: the bytes of an upload are hashed beside the event loop that receives and writes them. In
 * the loop, hashing a 100 MB upload took about 40 % of its PUT's time (docs/benchmarks.md). At most IN_FLIGHT_BYTES
 * of a hash wait for the thread: a slower hash holds the reading back instead of copies piling up in memory.
 */
import { Worker } from 'node:worker_threads';

/** Bytes of one hash sent to the thread and not hashed yet, at most. */
export const IN_FLIGHT_BYTES = 4 * 1024 * 1024;

// Plain JavaScript, run as the worker's script: no file to find next to a bundle, in Node or in Electron's main process.
const THREAD_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const hashes = new Map();
parentPort.on('message', ({ id, bytes, end }) => {
  let hash = hashes.get(id);
  if (!hash) hashes.set(id, (hash = createHash('md5')));
  if (bytes) {
    hash.update(bytes);
    parentPort.postMessage({ id, hashed: bytes.byteLength });
  }
  if (end === undefined) return;
  hashes.delete(id);
  if (end === 'digest') parentPort.postMessage({ id, hex: hash.digest('hex') });
});
`;

type Running = {
  waiting: number;
  drained?: () => void;
  result?: { resolve: (hex: string) => void; reject: (error: Error) => void };
  failed?: Error;
};

type Reply = { id: number; hashed: number } | { id: number; hex: string };

let thread: Worker | undefined;
const running = new Map<number, Running>();
let nextId = 1;

/** The thread keeps the process alive only while a hash runs. */
function settle(): void {
  if (running.size === 0) thread?.unref();
}

function failAll(error: Error): void {
  thread = undefined;
  for (const [id, hash] of running) {
    running.delete(id);
    hash.failed = error;
    hash.result?.reject(error);
    hash.drained?.();
  }
}

function startedThread(): Worker {
  if (thread) return thread;
  const worker = new Worker(THREAD_SOURCE, { eval: true });
  worker.on('message', (reply: Reply) => {
    const hash = running.get(reply.id);
    if (!hash) return;
    if ('hex' in reply) {
      running.delete(reply.id);
      hash.result?.resolve(reply.hex);
      settle();
      return;
    }
    hash.waiting -= reply.hashed;
    if (hash.waiting <= IN_FLIGHT_BYTES && hash.drained) {
      const drained = hash.drained;
      hash.drained = undefined;
      drained();
    }
  });
  worker.on('error', (error) => failAll(new Error(`the MD5 thread failed: ${error.message}`, { cause: error })));
  worker.on('exit', (code) => {
    if (thread === worker) failAll(new Error(`the MD5 thread stopped (exit code ${code})`));
  });
  thread = worker;
  return worker;
}

export type Md5Hash = {
  /** Hashes a copy of `chunk`: undefined when it may go on at once, or a promise of when the thread has caught up. */
  update(chunk: Uint8Array): Promise<void> | undefined;
  /** The hex digest of everything given; the hash is over. */
  digest(): Promise<string>;
  /** Ends the hash without a digest (an upload that failed). */
  drop(): void;
};

/** A new MD5 hash on the shared thread. */
export function md5OnThread(): Md5Hash {
  const worker = startedThread();
  worker.ref();
  const id = nextId++;
  const hash: Running = { waiting: 0 };
  running.set(id, hash);
  let over = false;
  return {
    update(chunk) {
      if (hash.failed) throw hash.failed;
      if (over) throw new Error('this hash is over');
      // A copy in an ArrayBuffer of its own, handed over without another copy: the caller still writes `chunk`.
      const bytes = new Uint8Array(chunk);
      hash.waiting += bytes.byteLength;
      worker.postMessage({ id, bytes }, [bytes.buffer]);
      if (hash.waiting <= IN_FLIGHT_BYTES) return undefined;
      return new Promise<void>((resolve) => {
        hash.drained = resolve;
      });
    },
    digest() {
      if (hash.failed) return Promise.reject(hash.failed);
      if (over) return Promise.reject(new Error('this hash is over'));
      over = true;
      return new Promise<string>((resolve, reject) => {
        hash.result = { resolve, reject };
        worker.postMessage({ id, end: 'digest' });
      });
    },
    drop() {
      if (over || hash.failed) return;
      over = true;
      running.delete(id);
      worker.postMessage({ id, end: 'drop' });
      settle();
    },
  };
}
