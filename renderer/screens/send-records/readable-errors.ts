/**
 * Mantine's error red is below 4.5:1 in both schemes (red 6 on white, red 8 on the dark background). The screens of
 * this branch set a red that passes on their own root, so field errors stay readable; the CSS variable inherits.
 */
import { useComputedColorScheme } from '@mantine/core';
import type { CSSProperties } from 'react';

export function useReadableErrors(): CSSProperties {
  const scheme = useComputedColorScheme('light');
  return { '--mantine-color-error': `var(--mantine-color-red-${scheme === 'dark' ? 4 : 9})` } as CSSProperties;
}
