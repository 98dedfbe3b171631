/**
 * The watcher's log lines name files and the folder as printable names: a line break or an escape character in a name
 * (Linux and network shares allow both) is written as an escape, so the name can neither break its log line nor forge
 * one. A real watcher on a real folder, its logger writing at debug level.
 */
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger, type Logger } from '../../lib/logger';
import { createFolderWatcher } from './folder-watcher';
import { waitFor, withWatcher } from '../../../test/helpers/watcher-kit';

/** Would read as an entry of its own in the log, if its line break were written as it is. */
const FORGED = 'census-a\n2026-01-01 09:00:00.000 INFO [watcher] forged.csv';
const FORGED_SHOWN = 'census-a\\u000a2026-01-01 09:00:00.000 INFO [watcher] forged.csv';

let lines: string[] = [];
let level: string | undefined;
beforeEach(() => {
  lines = [];
  level = process.env.PAYROLL_LOG_LEVEL;
  process.env.PAYROLL_LOG_LEVEL = 'debug';
});
afterEach(() => {
  if (level === undefined) delete process.env.PAYROLL_LOG_LEVEL;
  else process.env.PAYROLL_LOG_LEVEL = level;
});

/** A logger that keeps every line it writes (the level is read when it is made: debug, set above). */
const recording = (): Logger => createLogger('watcher', (line) => lines.push(line));
const logged = (text: string) => () => lines.some((line) => line.includes(text));

/** Every log line is one line: its only line break is the one that ends it. */
function expectOneLineEach(): void {
  for (const line of lines) expect(line.indexOf('\n'), line).toBe(line.length - 1);
}

describe('createFolderWatcher: file names in log lines', () => {
  it('escapes a line break or an escape character in the names of ready, refused and first-line-only files', async () => {
    await withWatcher({ logger: recording() }, async ({ dir }) => {
      await writeFile(join(dir, FORGED), 'lastName,firstName\nDoe,Jane\n');
      await waitFor('the ready line', logged(`${FORGED_SHOWN} is ready (`));
      // A symbolic link is refused unread (a warning line).
      await writeFile(join(dir, 'target.txt'), 'x\n');
      await symlink(join(dir, 'target.txt'), join(dir, 'census-link\n.csv'));
      await waitFor('the refused line', logged('census-link\\u000a.csv is refused: '));
      // A file that holds only its header waits longer (a debug line); an escape character would move the cursor.
      await writeFile(join(dir, 'census-\u001b[2Kheader\r.csv'), 'lastName,firstName\n');
      await waitFor('the first-line line', logged('census-\\u001b[2Kheader\\u000d.csv holds only its first line so far'));
      expectOneLineEach();
    });
  });

  it('escapes a line break in the watched folder\'s path when it goes and comes back', async () => {
    const parent = await mkdtemp(join(tmpdir(), 'payroll-watcher-log-'));
    const folder = join(parent, 'exports\nforged');
    const shown = `${parent}/exports\\u000aforged`;
    await mkdir(folder);
    const watcher = createFolderWatcher({ folder, stabilityMs: 300, folderCheckIntervalMs: 50, logger: recording() });
    try {
      await watcher.start();
      await rm(folder, { recursive: true });
      await waitFor('the folder said gone', logged(`Watched folder "${shown}" is not available (it does not exist)`));
      await mkdir(folder);
      await waitFor('the folder said back', logged(`Watched folder "${shown}" is available again`));
      expectOneLineEach();
    } finally {
      await watcher.stop();
      await rm(parent, { recursive: true, force: true });
    }
  });
});
