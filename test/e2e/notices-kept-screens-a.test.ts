/**
 * Messages said while no tab is open (browser mode keeps working after the last tab closes): the core keeps them, so a
 * tab opened later shows them above the screens; dismissed in one tab, a message goes in every tab, and a tab opened
 * after that no longer shows it. A real service, keychain, folder and `payroll-uploader ui` in Debian's Chromium.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { JobView } from '../../shared/bridge';
import { eventually } from '../helpers/local-server';
import { callBridge } from '../helpers/ui-app';
import { signedInWorld, visit } from './screens-a-kit';

const DISMISSED = 'census-no-status.csv';
const KEPT = 'census-no-salary.csv';

describe('Messages said while no tab was open (browser mode)', () => {
  const signedIn = signedInWorld({ stabilityMs: 300, sweepIntervalMs: 1000, preflight: 'block' });
  const messages = (page: Page) => page.getByRole('region', { name: 'Messages' });
  const refused = (page: Page, name: string) => messages(page).getByText(`${name} was refused`, { exact: false });

  it('shows a file refused meanwhile in a tab opened later; dismissed in one tab, it goes in all, and stays gone', async () => {
    const { world, ui, page, errors } = signedIn;
    // The clerk closes the only tab; the engine goes on watching the folder.
    await page.close();
    await writeFile(join(world.folder, DISMISSED), 'lastName,firstName\nDoe,Jane\n');
    await writeFile(join(world.folder, KEPT), 'lastName,firstName,employeeRegistration\nDoe,Jane,E000001\n');
    for (const name of [DISMISSED, KEPT]) {
      await eventually(async () => {
        const { body } = await callBridge(ui, 'jobs.query', { text: name, finished: true });
        return (body as { result: { items: JobView[] } }).result.items.find((job) => job.name === name && job.outcome === 'rejected');
      }, 60_000, 200);
    }

    // Opened later, a tab says what happened meanwhile, although the Queue has nothing waiting.
    const first = await world.open(ui);
    const second = await world.open(ui);
    try {
      for (const tab of [first.page, second.page]) {
        await tab.getByRole('heading', { name: 'Queue', level: 2 }).waitFor();
        await refused(tab, DISMISSED).waitFor({ timeout: 20_000 });
        await refused(tab, KEPT).waitFor({ timeout: 20_000 });
      }
      await visit(first.page, 'notices-kept-tab-opened-later');

      // Dismissed in the first tab: it goes there at once, and in the second tab by the core's word.
      await messages(first.page).getByRole('button', { name: `Dismiss: ${DISMISSED} was refused…` }).click();
      await refused(first.page, DISMISSED).waitFor({ state: 'detached' });
      await refused(second.page, DISMISSED).waitFor({ state: 'detached' });
      expect(await refused(second.page, KEPT).count()).toBe(1);
      await visit(second.page, 'notices-kept-dismissed-in-other-tab');
    } finally {
      await first.close();
      await second.close();
    }

    // A tab opened after the dismissal shows the message that stays, and not the dismissed one.
    const third = await world.open(ui);
    try {
      await refused(third.page, KEPT).waitFor({ timeout: 20_000 });
      expect(await refused(third.page, DISMISSED).count()).toBe(0);
      // A reload keeps what is on screen: the page asks the core again.
      await third.page.reload();
      await refused(third.page, KEPT).waitFor({ timeout: 20_000 });
      expect(await refused(third.page, DISMISSED).count()).toBe(0);
      expect([...errors, ...first.errors, ...second.errors, ...third.errors]).toEqual([]);
    } finally {
      await third.close();
    }
  }, 180_000);

  it('shows the newest few with how many more wait, and Dismiss all empties every tab', async () => {
    const { world, ui } = signedIn;
    const first = await world.open(ui);
    const second = await world.open(ui);
    try {
      await refused(first.page, KEPT).waitFor({ timeout: 20_000 });
      for (let i = 1; i <= 6; i += 1) await writeFile(join(world.folder, `payroll-${i}.xlsx`), 'not a csv export');
      // Five shown; the other two wait their turn. Which two is not known: the watcher says the files of one sweep in
      // the order the folder lists them (by a hash of the name on ext4), so payroll-6's may be the oldest of the six
      // and wait its turn. The count says every tab has all seven.
      for (const tab of [first.page, second.page]) {
        await messages(tab).getByText('2 earlier messages: dismiss these to see them.').waitFor({ timeout: 30_000 });
        expect(await messages(tab).getByRole('listitem').count()).toBe(5);
      }
      // The newest: the six files' messages but one, none of them the older refusal.
      expect(await messages(first.page).getByRole('listitem').filter({ hasText: /payroll-\d\.xlsx is not a CSV export/ }).count()).toBe(5);
      await visit(first.page, 'notices-kept-earlier-messages');

      await messages(first.page).getByRole('button', { name: 'Dismiss all messages' }).click();
      for (const tab of [first.page, second.page]) {
        await messages(tab).getByRole('listitem').first().waitFor({ state: 'detached' });
        expect(await messages(tab).getByText(/earlier message/).count()).toBe(0);
      }
      expect([...first.errors, ...second.errors]).toEqual([]);
    } finally {
      await first.close();
      await second.close();
    }
    const third = await world.open(ui);
    try {
      await third.page.getByRole('heading', { name: 'Queue', level: 2 }).waitFor();
      // The list asked for at start is in once the Queue shows; nothing is kept.
      await expect.poll(async () => (await callBridge(ui, 'notices.list')).body).toMatchObject({ result: { items: [], leftOut: 0 } });
      expect(await messages(third.page).getByRole('listitem').count()).toBe(0);
    } finally {
      await third.close();
    }
  }, 180_000);
});
