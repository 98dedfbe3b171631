/**
 * Browser mode when the engine goes away: `payroll-uploader ui` stops while the Queue is open. The screen must not
 * go on saying Watching as if files were still picked up: a red alert says the service is gone.
 */
import { describe, expect, it } from 'vitest';
import { signedInWorld, visit } from './screens-a-kit';

describe('the engine gone (browser mode)', () => {
  const signedIn = signedInWorld();

  it('says so above the Queue within seconds, with a way to try again', async () => {
    const { page, ui } = signedIn;
    await page.getByRole('link', { name: 'Queue' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'lost its background service' });
    expect(await alert.count()).toBe(0);
    expect(await ui.stop()).toBe(0);
    await alert.waitFor({ timeout: 15_000 });
    expect(await alert.textContent()).toMatch(/not watched or uploaded while it is gone/);
    expect(await alert.getByRole('button', { name: 'Try again' }).isVisible()).toBe(true);
    await visit(page, 'queue-engine-lost');
  });
});
