/**
 * The open screen's content (the `main` element, focusable by script only): where the focus goes when what had it
 * leaves the page or the sight of the clerk, as the skip link sends it there. A screen reader then reads on from the
 * top of the screen, and the next Tab goes to the screen's first control.
 */
export const MAIN_CONTENT_ID = 'main';

export function focusMainContent(): void {
  document.getElementById(MAIN_CONTENT_ID)?.focus();
}
