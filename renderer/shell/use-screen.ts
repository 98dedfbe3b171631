/** The open screen, kept in the address's hash so a reload or the back button keeps the clerk's place. */
import { useCallback, useEffect, useState } from 'react';
import { screenFromHash, type ScreenKey } from './screens';

export function useScreen(): [ScreenKey, (screen: ScreenKey) => void] {
  const [screen, setScreen] = useState<ScreenKey>(() => screenFromHash(window.location.hash));
  useEffect(() => {
    const onHash = () => setScreen(screenFromHash(window.location.hash));
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);
  const go = useCallback((next: ScreenKey) => {
    window.location.hash = `#/${next}`;
    setScreen(next);
  }, []);
  return [screen, go];
}
