/**
 * What a screen reader is told by a page's live regions, for tests: every change in a live region (aria-live, or the
 * roles alert, status, log, marquee and timer) as a reader takes it. An atomic region (aria-atomic, or alert and status
 * by default) is read whole when something is added to it or its text changes; any other reads only what was added.
 * Removals are not read (aria-relevant's default). An alert put on the page is read as it comes, wherever it is.
 *
 * The functions are self-contained, so Playwright can send them to a page as they are (`page.addInitScript`,
 * `page.evaluate`); a happy-dom test calls them. Either way the texts gather in `window.__announcements`, in order.
 */

/** The window with what was recorded (each function below names it itself: a page gets only the function's text). */
type Recording = { __announcements?: string[] };

/** Starts recording into `window.__announcements`; answers a function that stops. */
export function recordAnnouncements(): () => void {
  const said: string[] = [];
  (window as unknown as Recording).__announcements = said;
  const LIVE_ROLES = ['alert', 'status', 'log', 'marquee', 'timer'];
  const liveRegionOf = (start: Element | null): Element | null => {
    for (let element = start; element; element = element.parentElement) {
      const live = element.getAttribute('aria-live');
      if (live) {
        if (live !== 'off') return element;
        continue;
      }
      if (LIVE_ROLES.includes(element.getAttribute('role') ?? '')) return element;
    }
    return null;
  };
  const isAtomic = (region: Element): boolean => {
    const atomic = region.getAttribute('aria-atomic');
    return atomic === null ? ['alert', 'status'].includes(region.getAttribute('role') ?? '') : atomic === 'true';
  };
  const textOf = (node: Node): string => (node.textContent ?? '').replace(/\s+/g, ' ').trim();
  const say = (text: string) => {
    if (text !== '') said.push(text);
  };
  const observer = new MutationObserver((records) => {
    // An atomic region changed several times at once is read once, as it ends up.
    const wholeRegions = new Set<Element>();
    for (const record of records) {
      const target = record.target instanceof Element ? record.target : record.target.parentElement;
      const region = liveRegionOf(target);
      const added = record.type === 'childList' ? [...record.addedNodes] : [];
      for (const node of added) {
        if (!(node instanceof Element)) continue;
        const alerts = [...(node.matches('[role="alert"]') ? [node] : []), ...node.querySelectorAll('[role="alert"]')];
        for (const alert of alerts) say(textOf(alert));
      }
      if (!region || !region.isConnected) continue;
      if (record.type === 'characterData' || added.length > 0) {
        if (isAtomic(region)) wholeRegions.add(region);
        else if (record.type === 'characterData') say(textOf(record.target));
        else for (const node of added) say(textOf(node));
      }
    }
    for (const region of wholeRegions) say(textOf(region));
  });
  observer.observe(document, { subtree: true, childList: true, characterData: true });
  return () => observer.disconnect();
}

/** The announcements recorded so far, or since `forgetAnnouncements` (called in a happy-dom test, or `page.evaluate(announced)`). */
export function announced(): string[] {
  return [...((window as unknown as Recording).__announcements ?? [])];
}

export function forgetAnnouncements(): void {
  (window as unknown as Recording).__announcements?.splice(0);
}

/** The live regions on the page that sit inside another one (a reader may say their words twice). */
export function nestedLiveRegions(root: ParentNode = document): Element[] {
  const selector = '[aria-live]:not([aria-live="off"]), [role="alert"], [role="status"], [role="log"], [role="marquee"], [role="timer"]';
  return [...root.querySelectorAll(selector)].filter((region) => region.parentElement?.closest(selector));
}
