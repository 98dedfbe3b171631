/**
 * Where the keyboard focus goes when the focused control goes away. A control that is taken out of the page (a
 * queue row's Retry now once the file is on its way, a drawer's button whose file moved on, the button a drawer was
 * opened from) or made unfocusable drops the focus to <body>: the next Tab starts again at "Skip to content", a screen
 * reader says nothing, and behind an open drawer the next Tab and Enter work a control of the page the clerk cannot see
 * (Mantine's focus trap keeps Tab inside only while the focus is inside).
 *
 * So the app watches for that (useFocusFallback, once, in App) and gives the focus to the nearest place around the lost
 * control that is still there:
 * - an open dialog or drawer: its first control (its Close button), so the focus never leaves it;
 * - an element marked FOCUS_FALLBACK (a queue row, then the list of the queue; History's table), focusable by script
 *   only (tabindex -1), so a screen reader reads what is there now and the next Tab goes on from that place;
 * - the screen's content (<main>, which the skip link focuses too).
 * A drawer or dialog that closes while the control it was opened from is gone gives the focus to that control's places
 * in turn (its row, the list), remembered when the focus went into the drawer.
 *
 * It acts only when the focus was lost, not when the clerk moved it away (a click on an empty part of the page leaves
 * the control there and focusable), and after the app had its turn (a frame later): a screen that puts the focus
 * somewhere on purpose, as History does after Put back, keeps its choice.
 */
import { useEffect } from 'react';

/** Spread on an element (a row, a list) that takes the focus when a control inside it goes away. */
export const FOCUS_FALLBACK = { 'data-focus-fallback': true, tabIndex: -1 } as const;

const DIALOG = '[role="dialog"][aria-modal="true"]';
const PLACE = `[data-focus-fallback], ${DIALOG}, main[tabindex]`;
const TABBABLE = 'button:not([disabled]), a[href], input:not([disabled]):not([type="hidden"]), select:not([disabled]), '
  + 'textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** A focused element and the places around it, innermost first, taken while it was in the page. */
type Focused = { element: HTMLElement; places: HTMLElement[] };

function placesOf(element: HTMLElement): HTMLElement[] {
  const places: HTMLElement[] = [];
  for (let up = element.parentElement?.closest<HTMLElement>(PLACE); up; up = up.parentElement?.closest<HTMLElement>(PLACE)) {
    places.push(up);
  }
  return places;
}

const isDialog = (element: Element) => element.matches(DIALOG);

/** Focuses the element if it can take the focus now; says whether it did. */
function tryFocus(element: HTMLElement): boolean {
  if (!element.isConnected || element.closest('[inert]')) return false;
  element.focus({ preventScroll: true });
  return document.activeElement === element;
}

/** Whether the element could still hold the focus: then the focus was moved away from it, not lost. */
function stillFocusable(element: HTMLElement): boolean {
  return element.isConnected && !element.matches(':disabled') && !element.closest('[inert]') && (element.checkVisibility?.() ?? true);
}

export function keepFocusOnPage(): () => void {
  let current: Focused | undefined;
  // Where the focus was before it went into a dialog, for when the dialog closes and that control is gone.
  const openedFrom = new WeakMap<HTMLElement, Focused>();

  const restore = (lost: Focused, withElement: boolean): boolean => {
    if (withElement && tryFocus(lost.element)) return true;
    for (const place of lost.places) {
      if (isDialog(place)) {
        if (place.isConnected) return tryFocus(place.querySelector<HTMLElement>(TABBABLE) ?? place) || tryFocus(place);
        const before = openedFrom.get(place);
        if (before && restore(before, true)) return true;
      } else if (tryFocus(place)) {
        return true;
      }
    }
    return false;
  };

  const onFocusIn = (event: FocusEvent) => {
    const element = event.target;
    if (!(element instanceof HTMLElement) || element === document.body) return;
    const focused = { element, places: placesOf(element) };
    for (const place of focused.places) {
      if (isDialog(place) && current && !current.places.includes(place) && current.element !== place) openedFrom.set(place, current);
    }
    current = focused;
  };

  const onFocusOut = (event: FocusEvent) => {
    const element = event.target;
    // Focus going to another element, or to another window (the element keeps it there), is not lost.
    if (event.relatedTarget !== null || !(element instanceof HTMLElement)) return;
    // Chromium says focusout while the element is still in the page, before it is taken out.
    const lost = current?.element === element ? current : { element, places: placesOf(element) };
    requestAnimationFrame(() => setTimeout(() => {
      const active = document.activeElement;
      if ((active && active !== document.body) || stillFocusable(lost.element)) return;
      restore(lost, false);
    }));
  };

  document.addEventListener('focusin', onFocusIn);
  document.addEventListener('focusout', onFocusOut);
  return () => {
    document.removeEventListener('focusin', onFocusIn);
    document.removeEventListener('focusout', onFocusOut);
  };
}

/** Keeps the focus on the page for as long as the calling component (the app) is there. */
export function useFocusFallback(): void {
  useEffect(() => keepFocusOnPage(), []);
}
