/**
 * Words for a screen reader to say once, without the page showing them twice.
 *
 * A live region that wraps what the screen shows re-reads it whenever a part changes (atomic) or reads every change
 * the clerk makes while fixing things. This one is visually hidden and holds only what is to be said: each
 * announcement goes in as an element of its own, and the region is neither atomic nor read on removals, so a reader
 * says what was added and nothing else. The region is on the page before anything is said in it (a region put on the
 * page with its words is not read by every reader). An announcement leaves it a while after it was said, so a reader
 * going through the page does not come across a hidden second copy of what the screen shows.
 */
import { VisuallyHidden } from '@mantine/core';
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';

/** Long past the moment a reader takes the words (it reads them as they are added; a removal is not read). */
export const ANNOUNCEMENT_KEPT_MS = 7000;

export type Announcer = {
  /** Says `text` once, even when it is the same as before. */
  announce: (text: string) => void;
  /** The live region: to be on the page for as long as the announcer is used. */
  region: ReactNode;
};

/** `assertive` for what stops the clerk's task (a send that did not go out); `polite` for news that can wait. */
export function useAnnouncer(politeness: 'polite' | 'assertive'): Announcer {
  const [said, setSaid] = useState<{ id: number; text: string }[]>([]);
  const last = useRef(0);
  const timers = useRef(new Set<ReturnType<typeof setTimeout>>());
  useEffect(() => {
    const pending = timers.current;
    return () => {
      for (const timer of pending) clearTimeout(timer);
      pending.clear();
    };
  }, []);
  const announce = useCallback((text: string) => {
    const id = (last.current += 1);
    setSaid((current) => [...current, { id, text }]);
    const timer = setTimeout(() => {
      timers.current.delete(timer);
      setSaid((current) => current.filter((entry) => entry.id !== id));
    }, ANNOUNCEMENT_KEPT_MS);
    timers.current.add(timer);
  }, []);
  const region = (
    <VisuallyHidden aria-live={politeness} aria-atomic="false" aria-relevant="additions" data-announcer={politeness}>
      {said.map((entry) => <span key={entry.id}>{entry.text}</span>)}
    </VisuallyHidden>
  );
  return { announce, region };
}
