/** A long list that scrolls with the page and renders only the rows in view (TanStack Virtual). */
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';

export function useWindowList(count: number, estimateSize: number, overscan = 8) {
  const listRef = useRef<HTMLDivElement>(null);
  const [scrollMargin, setScrollMargin] = useState(0);
  useLayoutEffect(() => {
    const el = listRef.current;
    if (!el) return;
    // The list starts below the screen's header and filters; the virtualizer counts from the page's top.
    const update = () => setScrollMargin(el.getBoundingClientRect().top + window.scrollY);
    update();
    const observer = new ResizeObserver(update);
    if (el.parentElement) observer.observe(el.parentElement);
    return () => observer.disconnect();
  }, []);
  const virtualizer = useWindowVirtualizer({ count, estimateSize: () => estimateSize, overscan, scrollMargin });
  // A new row height (the window got narrow or wide) makes every cached row size wrong.
  useEffect(() => virtualizer.measure(), [virtualizer, estimateSize]);
  return { listRef, virtualizer, scrollMargin };
}
