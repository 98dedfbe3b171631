/** What happy-dom lacks for Mantine and the virtual lists; imported first by each component test. */
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

afterEach(() => cleanup());

// findBy* and waitFor give a condition 5 s, not the library's 1 s: many wait for the 200 ms event batcher and a
// render, which a loaded CI machine can stretch past a second. A test that passes stays as fast; only a failing
// wait takes longer to fail.
configure({ asyncUtilTimeout: 5_000 });

if (typeof window !== 'undefined') {
  // Mantine's ScrollArea and the virtualizer observe sizes; happy-dom has no layout, so nothing ever resizes.
  globalThis.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
}
