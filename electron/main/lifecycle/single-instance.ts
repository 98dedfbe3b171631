/** One app per user session: a second launch hands over to the first, which shows its window. */
import type { App } from 'electron';

/** False when another instance runs (this one should quit at once). */
export function claimSingleInstance(app: Pick<App, 'requestSingleInstanceLock' | 'on'>, showFirstWindow: () => void): boolean {
  if (!app.requestSingleInstanceLock()) return false;
  app.on('second-instance', () => showFirstWindow());
  return true;
}
