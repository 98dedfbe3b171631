/**
 * Another program holding a write lock on the journal (a database browser, a backup tool, a `send` journaling its
 * batch): the uploader's writes wait for it, a write that still finds it fails where its caller sees it, and what the
 * uploader says always matches the file, read by a fresh connection. The lock is held by a real second connection in
 * another process; real SQLite, a real queue and a real server.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { setFaults } from '../../../test/helpers/api-kit';
import { answersAfter, gate } from '../../../test/helpers/held-answers';
import { eventually, getToken, tempDir } from '../../../test/helpers/local-server';
import { censusCsv, startQueueEnv, type QueueEnv } from '../../../test/helpers/queue-kit';
import { JOURNAL_FILE, LOCK_WAIT_MS, openJournal, type Journal } from './journal';

const libsql = createRequire(import.meta.url).resolve('libsql');

/**
 * A second connection, in its own process, that takes the journal's write lock (BEGIN IMMEDIATE, with a write of its
 * own in it, as a DB browser's edit) and keeps it until release() or `forMs` has passed.
 */
async function holdLock(dataDir: string, forMs = 60_000): Promise<{ release(): Promise<void> }> {
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, ['-e', `
    const Database = require(${JSON.stringify(libsql)});
    const db = new Database(${JSON.stringify(join(dataDir, JOURNAL_FILE))});
    db.exec('BEGIN IMMEDIATE');
    db.exec("INSERT INTO batches (kind, records, state, created_at, state_changed_at) VALUES ('census', 0, 'x', 0, 0)");
    process.stdout.write('locked\\n');
    const end = () => { db.exec('ROLLBACK'); db.close(); process.exit(0); };
    process.stdin.on('data', end);
    setTimeout(end, ${forMs});
  `]);
  let ended = false;
  const exited = new Promise<void>((done) => child.once('exit', () => {
    ended = true;
    done();
  }));
  child.stdin.on('error', () => undefined); // ended by itself meanwhile
  await new Promise<void>((locked, failed) => {
    child.stdout.once('data', () => locked());
    child.once('exit', (code) => failed(new Error(`the lock holder ended (${code}): ${child.stderr.read() ?? ''}`)));
  });
  return {
    async release() {
      if (!ended) child.stdin.end('release\n');
      await exited;
    },
  };
}

let dir: string | undefined;
let journal: Journal | undefined;
let env: QueueEnv | undefined;
afterEach(async () => {
  journal?.close();
  journal = undefined;
  await env?.close();
  env = undefined;
});

const file = (name: string) => ({ path: `/watched/${name}`, name, size: 10, mtimeMs: 1 });

/** The jobs as a fresh connection reads them from the file. */
function onDisk(dataDir: string): { id: number; state: string }[] {
  const other = openJournal(dataDir);
  try {
    return other.jobs().reverse().map(({ id, state }) => ({ id, state }));
  } finally {
    other.close();
  }
}

describe('journal: another program holding its write lock', () => {
  it('a transaction that reads before it writes waits for the lock instead of failing at once', async () => {
    dir = await tempDir('journal-lock-');
    journal = openJournal(dir);
    const a = journal.insertJob(file('census-a.csv'), 1, '2026-01-01');
    journal.update(a.id, { state: 'uploading' }, 2);
    const holder = await holdLock(dir, 1_500);
    const open = journal;
    // As the queue does: it looks at the journal (here: the history), then writes what it learned.
    open.transaction(() => {
      expect(open.jobs(10).map((job) => job.state)).toEqual(['uploading']);
      open.update(a.id, { state: 'uploaded' }, 3);
    });
    await holder.release();
    expect(onDisk(dir)).toEqual([{ id: a.id, state: 'uploaded' }]);
  }, 30_000);

  it('a write that still finds the lock fails where its caller sees it; memory is put back, and the next write reaches the file', async () => {
    dir = await tempDir('journal-lock-');
    journal = openJournal(dir, { lockWaitMs: 200 });
    const a = journal.insertJob(file('census-a.csv'), 1, '2026-01-01');
    journal.update(a.id, { state: 'uploading' }, 2);
    const holder = await holdLock(dir);
    try {
      expect(() => journal!.update(a.id, { state: 'uploaded' }, 3)).toThrow(/database is locked/);
      expect(() => journal!.transaction(() => {
        journal!.update(a.id, { state: 'uploaded' }, 3);
        journal!.insertJob(file('census-b.csv'), 3, '2026-01-01');
      })).toThrow(/database is locked/);
      expect(() => journal!.insertJob(file('census-b.csv'), 3, '2026-01-01')).toThrow(/database is locked/);
      // Nothing of it is believed: memory says what the file says.
      expect(journal.liveJobs().map(({ id, state }) => ({ id, state }))).toEqual([{ id: a.id, state: 'uploading' }]);
    } finally {
      await holder.release();
    }
    expect(onDisk(dir)).toEqual([{ id: a.id, state: 'uploading' }]);

    // After the failures the connection writes to the file again (a "database is locked" left unfinished once made
    // every later write look made while it never reached the file).
    journal.update(a.id, { state: 'uploaded' }, 4);
    const b = journal.insertJob(file('census-b.csv'), 4, '2026-01-01');
    journal.insertBatch('census', 2, 4);
    expect(onDisk(dir)).toEqual([{ id: a.id, state: 'uploaded' }, { id: b.id, state: 'found' }]);
    const other = openJournal(dir);
    try {
      expect(other.batches().map((batch) => batch.state)).toEqual(['sending']);
    } finally {
      other.close();
    }
  }, 30_000);

  it('a lock held during an upload for longer than a write waits: what the queue says and what the journal holds agree', async () => {
    env = await startQueueEnv();
    const token = await getToken(env.server.url);
    await setFaults(env.server.url, token, [{ pathPrefix: '/uploads/', latencyMs: 2_000 }]);
    // The PUT's answer reaches the queue only once the lock is held, however long the lock holder takes to start.
    const lock = gate();
    const queue = env.queue({ api: answersAfter(env.api, lock.opened, 'uploadFile') });
    await queue.start();
    const job = queue.add(await env.write('census-l1.csv', censusCsv('journal-locked')))!;
    await eventually(() => (queue.job(job.id)?.state === 'uploading' ? true : undefined), 20_000);
    // Held while the PUT is out and when its answer comes back, longer than a write waits (LOCK_WAIT_MS): the write of
    // its outcome fails, and is made again once the lock is gone.
    const holder = await holdLock(env.dataDir, LOCK_WAIT_MS + 2_000);
    lock.open();
    const done = await env.finished(queue, job.id);
    await holder.release();
    await setFaults(env.server.url, token, []);
    expect(done.state).toBe('uploaded');
    expect(onDisk(env.dataDir)).toEqual([{ id: job.id, state: 'uploaded' }]);
    expect(env.serverFiles(done.md5!)).toHaveLength(1);
    const other = openJournal(env.dataDir);
    try {
      expect(other.job(job.id)).toMatchObject({ state: 'uploaded', archivedPath: done.archivedPath, importId: done.importId });
    } finally {
      other.close();
    }
  }, 60_000);

  it('a batch the service took while the journal stays locked is told as sent, and never journaled as failed', async () => {
    env = await startQueueEnv();
    const token = await getToken(env.server.url);
    // The POST is out for a second: the lock is taken meanwhile, and held past the write of its answer (until it is
    // released below). The answer reaches the queue only once the lock is held, however long the holder takes to start.
    await setFaults(env.server.url, token, [{ pathPrefix: '/law/api/v1/census', latencyMs: 1_000 }]);
    const lock = gate();
    const queue = env.queue({ api: answersAfter(env.api, lock.opened, 'sendBatch') });
    await queue.start();
    const sending = queue.sendBatch('census', [{
      lastName: 'Silva', firstName: 'Ana', employeeRegistration: 'LOCK-1', hireDate: '2024-03-01', employeeStatus: 'ACTIVE',
    }]);
    const holder = await holdLock(env.dataDir);
    lock.open();
    const result = await sending.finally(() => holder.release());
    await setFaults(env.server.url, token, []);
    // The service holds the records: said so, with their import id, not "failed" (which a clerk would send again).
    expect(result.created?.id).toBeDefined();
    expect(result.batch).toMatchObject({ state: 'sent', importId: result.created!.id });
    const other = openJournal(env.dataDir);
    try {
      expect(other.batches().map((b) => b.state)).toEqual(['sending']);
    } finally {
      other.close();
    }
  }, 60_000);
});
