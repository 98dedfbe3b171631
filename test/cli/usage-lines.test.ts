/**
 * Each command's usage line names every flag its help goes on to explain (`server`'s says `[flags]`): `watch`'s left
 * out `--max-wait`, so a reader of the first line alone did not know a scheduled run's wait could be set.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli';

describe('usage lines', () => {
  it.each(['watch', 'send', 'deliveries', 'ui'])('%s --help: the first line names every flag explained below it', async (command) => {
    const help = await runCli([command, '--help']);
    expect(help.code).toBe(0);
    const [first = '', ...rest] = help.stdout.split('\n');
    const explained = [...new Set(rest.join('\n').match(/--[a-z][a-z-]*/g) ?? [])];
    expect(explained.length).toBeGreaterThan(0);
    expect(explained.filter((flag) => !first.includes(flag))).toEqual([]);
  });
});
