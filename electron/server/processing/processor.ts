/**
 * Processes accepted imports one at a time, in the order they were received (so a census
 * batch sent before a receipt batch is known when the receipts are checked), and resumes
 * what a crash left unfinished. Each finished import is handed to the delivery engine.
 *
 * JSON batches are processed synchronously inside the server's group commit, so consecutive ones
 * share one transaction with the imports and request-log rows of the same turn: a commit costs more
 * than processing a small batch. Their QUEUED -> PROCESSING -> PROCESSED steps are therefore
 * committed together; an uploaded file is PROCESSING while it streams. A route hands over the row
 * it has just written, so the processor never reads it back.
 *
 * An import may be held back (a fault rule's processingDelayMs, local/faults.ts): it is not processed before its
 * time, and, imports being processed in arrival order, neither is any import behind it. A timer goes on at that
 * time; `release` ends a client's holds earlier (the fault rule that set them was removed or changed).
 */
import type { Logger } from '../../lib/logger';
import type { Db } from '../db/database';
import type { GroupCommit } from '../db/group-commit';
import type { ImportRow, ProcessOutcome } from '../db/imports-repo';
import { finishImport, getImport, setImportStatus, unfinishedImports } from '../db/imports-repo';

/**
 * Holds an import back until `until` (on the performance.now() clock, which a change of the computer's clock does not
 * move). `rule` names the fault rule that set it, so that a change of the client's rules ends it only when that rule
 * is no longer in force.
 */
export type ProcessingHold = { until: number; clientId: string; rule: string };

export type Processor = {
  /** Queues an import; `row` is the row as just written (it is then not read back); `hold` keeps it (and so every later import) waiting. */
  schedule(importId: string, row?: ImportRow, hold?: ProcessingHold): void;
  /**
   * Ends the holds of a client's imports, or of every client's when none is named, save those of the rules still
   * `inForce`: they are processed now, in order.
   */
  release(clientId?: string, inForce?: ReadonlySet<string>): void;
  /** Resumes imports left QUEUED or PROCESSING by an earlier run. */
  resume(): void;
  /** Resolves when nothing is queued or running, save imports waiting for the end of a hold (and those behind them). */
  idle(): Promise<void>;
  /** Whether nothing is queued or running now: an import received now may then be processed at once, in order. */
  isIdle(): boolean;
  stop(): Promise<void>;
};

export type ProcessorDeps = {
  db: Db;
  writes: GroupCommit;
  logger: Logger;
  handlers: { json(row: ImportRow): ProcessOutcome; file(row: ImportRow): Promise<ProcessOutcome> };
  onFinished(row: ImportRow): void;
};

/** JSON batches processed in one transaction at most. */
const JSON_GROUP = 200;

const INTERNAL = 'the import could not be processed because of an internal error';

export function createProcessor(deps: ProcessorDeps): Processor {
  const { db, logger } = deps;
  const queue: string[] = [];
  const queued = new Set<string>();
  const handed = new Map<string, ImportRow>();
  const holds = new Map<string, ProcessingHold>();
  let running: Promise<void> | undefined;
  /** Goes on when the hold of the import at the head of the queue ends. */
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  const pending = (id: string) => {
    const known = handed.get(id);
    handed.delete(id);
    const row = known ?? getImport(db, id);
    return row && (row.status === 'QUEUED' || row.status === 'PROCESSING') ? row : undefined;
  };

  /** Processes JSON batches at the head of the queue (inside the group commit's transaction); returns the finished rows. */
  const processJsonGroup = (rows: ImportRow[]) =>
    rows.map((row) => {
      let outcome: ProcessOutcome;
      try {
        outcome = deps.handlers.json(row);
      } catch (error) {
        logger.error(`import ${row.id} failed unexpectedly: ${(error as Error).stack ?? String(error)}`);
        outcome = { status: 'REJECTED', reason: INTERNAL };
      }
      return finishImport(db, row, outcome);
    });

  async function processFile(row: ImportRow): Promise<ImportRow | undefined> {
    setImportStatus(db, row.id, 'PROCESSING');
    let outcome: ProcessOutcome;
    try {
      outcome = await deps.handlers.file(row);
    } catch (error) {
      logger.error(`import ${row.id} failed unexpectedly: ${(error as Error).stack ?? String(error)}`);
      outcome = { status: 'REJECTED', reason: INTERNAL };
    }
    if (stopped) return undefined; // left PROCESSING: the next start resumes it
    return finishImport(db, { ...row, status: 'PROCESSING' }, outcome);
  }

  const take = () => {
    const id = queue.shift() as string;
    queued.delete(id);
    holds.delete(id);
    return id;
  };

  /** How long the import at the head of the queue must still wait; 0 when it may be processed now. */
  const headWait = () => {
    const hold = queue.length > 0 ? holds.get(queue[0] as string) : undefined;
    return hold ? Math.max(0, hold.until - performance.now()) : 0;
  };

  async function drain(): Promise<void> {
    try {
      while (queue.length > 0 && !stopped && headWait() === 0) {
        const json: ImportRow[] = [];
        let file: ImportRow | undefined;
        while (queue.length > 0 && json.length < JSON_GROUP && !file && headWait() === 0) {
          const row = pending(take());
          if (row?.source === 'json') json.push(row);
          else if (row) file = row;
        }
        const finished: (ImportRow | undefined)[] = json.length ? await deps.writes.run(() => processJsonGroup(json)) : [];
        if (file) finished.push(await processFile(file));
        for (const row of finished) if (row) deps.onFinished(row);
      }
    } catch (error) {
      // A failed write (disk full, I/O error) must not wedge the processor: the imports it held stay QUEUED or
      // PROCESSING in the database, so the next start resumes them, and later imports are still processed now.
      logger.error(`processing stopped on an unexpected error, the next start resumes it: ${(error as Error).stack ?? String(error)}`);
    } finally {
      running = undefined;
      if (!stopped) next();
    }
  }

  const kick = () => {
    running ??= new Promise<void>((resolve) => setImmediate(resolve)).then(drain);
  };

  /** Goes on with the queue now, or once the hold of its head ends (a timer, never a busy loop). */
  const next = () => {
    clearTimeout(timer);
    timer = undefined;
    if (queue.length === 0) return;
    const wait = headWait();
    if (wait === 0) kick();
    else timer = setTimeout(next, wait);
  };

  return {
    schedule(importId, row, hold) {
      if (stopped || queued.has(importId)) return;
      queue.push(importId);
      queued.add(importId);
      if (row) handed.set(importId, row);
      if (hold) holds.set(importId, hold);
      // Behind a held import, nothing is to be done before its hold ends: the timer set for it goes on then.
      if (timer === undefined) kick();
    },
    release(clientId, inForce) {
      for (const [id, hold] of holds) {
        if ((clientId === undefined || hold.clientId === clientId) && !inForce?.has(hold.rule)) holds.delete(id);
      }
      if (!stopped && running === undefined) next();
    },
    resume() {
      for (const row of unfinishedImports(db)) this.schedule(row.id);
    },
    async idle() {
      while (running) await running;
    },
    isIdle: () => !stopped && queue.length === 0 && running === undefined,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      timer = undefined;
      queue.length = 0;
      queued.clear();
      handed.clear();
      holds.clear();
      await running;
    },
  };
}
