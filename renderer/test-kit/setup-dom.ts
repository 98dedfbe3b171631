/** What happy-dom lacks for Mantine and the virtual lists; imported first by each component test. */
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

afterEach(() => cleanup());

if (typeof window !== 'undefined') {
  // Mantine's ScrollArea and the virtualizer observe sizes; happy-dom has no layout, so nothing ever resizes.
  globalThis.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
}
