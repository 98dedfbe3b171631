/** WCAG's contrast ratio of two CSS colours (1 to 21), for the tests that hold the theme to it. */
import { luminance } from '@mantine/core';

export function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}
