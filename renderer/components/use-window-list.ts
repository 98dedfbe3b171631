/** A long list that scrolls with the page and renders only the rows in view (TanStack Virtual). */
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';

export type WindowListOptions = {
  /** Each row's height in pixels, known without measuring. */
  size: (index: number) => number;
  key?: (index: number) => number | string;
  /** Values whose change changes the sizes. */
  deps?: readonly unknown[];
  overscan?: number;
};

export function useWindowList(count: number, options: WindowListOptions) {
  const listRef = useRef<HTMLDivElement>(null);
  const [scrollMargin, setScrollMargin] = useState(0);
  useLayoutEffect(() => {
    const el = listRef.current;
    if (!el) return;
    // The list starts below the screen's header and filters; the virtualizer counts from the page's top.
    const update = () => setScrollMargin(Math.round(el.getBoundingClientRect().top + window.scrollY));
    update();
    // What sits above the list (headers, filters, messages) moves it; the list's own growth does not.
    const above = el.closest('main') ?? el.parentElement;
    const observer = new ResizeObserver(update);
    for (const child of above ? [...above.children] : []) if (!child.contains(el)) observer.observe(child);
    return () => observer.disconnect();
  }, []);
  const virtualizer = useWindowVirtualizer({
    count, estimateSize: options.size, overscan: options.overscan ?? 8, scrollMargin,
    ...(options.key ? { getItemKey: options.key } : {}),
  });
  // New sizes (a file started uploading, the window got narrow) make the cached row sizes wrong.
  useEffect(() => virtualizer.measure(), [virtualizer, ...(options.deps ?? [])]);
  return { listRef, virtualizer, scrollMargin };
}
