/**
 * What the keyboard-focus flows check in Chromium: where the focus is (never the page itself, <body>), whether it is
 * inside an element, and how a busy button looked to assistive technology while it was busy.
 */
import type { Locator, Page } from 'playwright-core';

/** The focused element in words (its role or tag and its name), or "BODY" when the focus fell to the page. */
export function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return 'BODY';
    const name = el.getAttribute('aria-label') ?? el.textContent?.trim().slice(0, 80) ?? '';
    return `${el.getAttribute('role') ?? el.tagName.toLowerCase()} "${name}"`;
  });
}

/** Whether the element has the focus itself. */
export function hasFocus(locator: Locator): Promise<boolean> {
  return locator.evaluate((el) => el === document.activeElement);
}

/** Whether the focus is on the element or inside it. */
export function holdsFocus(locator: Locator): Promise<boolean> {
  return locator.evaluate((el) => el.contains(document.activeElement));
}

/**
 * A page script that notes each button as it becomes busy (Mantine's `data-loading`): whether it was disabled (which
 * takes the focus off it), what it said to assistive technology, and whether it had the focus.
 */
export const NOTE_BUSY_BUTTONS = `(() => {
  window.__busyButtons = [];
  new MutationObserver((changes) => {
    for (const change of changes) {
      const el = change.target;
      if (el.tagName !== 'BUTTON' || !el.hasAttribute('data-loading')) continue;
      window.__busyButtons.push({
        name: (el.textContent || '').trim(), disabled: el.disabled, ariaBusy: el.getAttribute('aria-busy'),
        ariaDisabled: el.getAttribute('aria-disabled'), focused: el === document.activeElement,
      });
    }
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-loading'] });
})();`;

export type BusyButton = { name: string; disabled: boolean; ariaBusy: string | null; ariaDisabled: string | null; focused: boolean };

/** The buttons noted busy since the last call (NOTE_BUSY_BUTTONS must run in the page). */
export function busyButtons(page: Page): Promise<BusyButton[]> {
  return page.evaluate(() => {
    const w = window as unknown as { __busyButtons: BusyButton[] };
    const noted = w.__busyButtons;
    w.__busyButtons = [];
    return noted;
  });
}

/** How a button that keeps the focus while busy looks then. */
export const FOCUSED_AND_BUSY = { disabled: false, ariaBusy: 'true', ariaDisabled: 'true', focused: true };
