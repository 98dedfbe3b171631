/**
 * The list of what stopped a send, for a screen reader, in Chromium against `payroll-uploader ui --local-server`: it
 * is said once when a Send stops, and not again while the clerk fixes the fields, however the list changes at each
 * keystroke (a date half typed is not a real date yet); the next Send that stops says it again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { announced, forgetAnnouncements, nestedLiveRegions, recordAnnouncements } from '../../renderer/test-kit/announcements';
import { allAxeViolations } from './axe-kit';
import { checkZoom } from './screens-a-kit';
import { openScreen, screenshots, startScreensWorld, type ScreensWorld } from './screens-b-kit';


describe('Send records: what stopped a send, for a screen reader (Chromium)', () => {
  let world: ScreensWorld;
  beforeAll(async () => {
    world = await startScreensWorld();
  }, 180_000);
  afterAll(async () => {
    await world?.close();
  });

  it('says the list once when a Send stops, nothing while the clerk fixes the fields, and again at the next Send', async () => {
    const { page, errors } = world;
    await openScreen(page, 'Send records');
    await page.getByRole('tab', { name: 'New hires' }).click();
    await page.evaluate(`(${recordAnnouncements.toString()})();`);
    const person = page.getByRole('group', { name: 'Person 1' });
    const lastName = person.getByRole('textbox', { name: 'Last name' });
    const registration = person.getByRole('textbox', { name: 'Employee registration' });
    const hireDate = person.getByLabel('Hire date');
    await lastName.fill('Smith');
    await registration.fill('E-5');
    await page.getByRole('button', { name: 'Send 1 person' }).click();
    const problems = page.getByRole('region', { name: 'Nothing was sent yet' });
    await problems.filter({ hasText: 'Person 1: Hire date is required' }).waitFor();
    await expect.poll(() => page.evaluate(announced)).toEqual([
      'Nothing was sent yet. Fix the fields marked in red, then send again. Person 1: First name is required. '
      + 'Person 1: Hire date is required. Person 1: Employee status is required.',
    ]);
    expect(await page.evaluate(`(${nestedLiveRegions.toString()})().length`)).toBe(0);
    await screenshots(page, 'send-records-problems-stopped');
    await checkZoom(page, 'send-records-problems-stopped');
    expect(await allAxeViolations(page)).toEqual([]);

    // The clerk types the date a key at a time (the list changes as it goes: part of a date is not a real one), then
    // adds to two more fields.
    await page.evaluate(forgetAnnouncements);
    await hireDate.focus();
    for (const key of '03152026') await page.keyboard.type(key);
    await problems.filter({ hasNotText: 'Hire date' }).waitFor();
    await registration.focus();
    await page.keyboard.press('End');
    await page.keyboard.type('12');
    await lastName.focus();
    await page.keyboard.press('End');
    await page.keyboard.type('son');
    await person.getByRole('textbox', { name: 'First name' }).fill('Anna');
    await problems.filter({ hasNotText: 'First name' }).waitFor();
    expect(await page.evaluate(announced)).toEqual([]);

    // Sent again and stopped again: said again, as it now is.
    await page.getByRole('button', { name: 'Send 1 person' }).click();
    await expect.poll(() => page.evaluate(announced)).toEqual([
      'Nothing was sent yet. Fix the fields marked in red, then send again. Person 1: Employee status is required.',
    ]);
    await page.getByRole('button', { name: 'Start over' }).click();
    expect(errors).toEqual([]);
  }, 120_000);
});
