/**
 * Processes accepted imports one at a time, in the order they were received (so a census
 * batch sent before a receipt batch is known when the receipts are checked), and resumes
 * what a crash left unfinished. Each finished import is handed to the delivery engine.
 */
import type { Logger } from '../../lib/logger';
import type { Db } from '../db/database';
import type { ImportRow, ProcessOutcome } from '../db/imports-repo';
import { finishImport, getImport, setImportStatus, toImportResult, unfinishedImports } from '../db/imports-repo';

export type Processor = {
  schedule(importId: string): void;
  /** Resumes imports left QUEUED or PROCESSING by an earlier run. */
  resume(): void;
  /** Resolves when nothing is queued or running. */
  idle(): Promise<void>;
  stop(): Promise<void>;
};

export type ProcessorDeps = {
  db: Db;
  logger: Logger;
  handlers: { json(row: ImportRow): Promise<ProcessOutcome> | ProcessOutcome; file(row: ImportRow): Promise<ProcessOutcome> };
  onFinished(row: ImportRow): void;
};

export function createProcessor(deps: ProcessorDeps): Processor {
  const queue: string[] = [];
  let running: Promise<void> | undefined;
  let stopped = false;

  async function processOne(id: string): Promise<void> {
    const row = getImport(deps.db, id);
    if (!row || (row.status !== 'QUEUED' && row.status !== 'PROCESSING')) return;
    setImportStatus(deps.db, id, 'PROCESSING');
    let outcome: ProcessOutcome;
    try {
      outcome = await (row.source === 'json' ? deps.handlers.json(row) : deps.handlers.file(row));
    } catch (error) {
      deps.logger.error(`import ${id} failed unexpectedly: ${(error as Error).stack ?? String(error)}`);
      outcome = { status: 'REJECTED', reason: 'the import could not be processed because of an internal error' };
    }
    if (stopped) return; // left PROCESSING: the next start resumes it
    finishImport(deps.db, id, outcome);
    const finished = getImport(deps.db, id);
    if (finished) {
      deps.logger.info(`import ${id} ${finished.status}: ${JSON.stringify(toImportResult(finished)).length} bytes of result`);
      deps.onFinished(finished);
    }
  }

  async function drain(): Promise<void> {
    while (queue.length > 0 && !stopped) await processOne(queue.shift() as string);
    running = undefined;
  }

  const kick = () => {
    running ??= new Promise<void>((resolve) => setImmediate(resolve)).then(drain);
  };

  return {
    schedule(importId) {
      if (stopped || queue.includes(importId)) return;
      queue.push(importId);
      kick();
    },
    resume() {
      for (const row of unfinishedImports(deps.db)) this.schedule(row.id);
    },
    async idle() {
      while (running) await running;
    },
    async stop() {
      stopped = true;
      queue.length = 0;
      await running;
    },
  };
}
