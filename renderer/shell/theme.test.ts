import { DEFAULT_THEME, defaultCssVariablesResolver, mergeMantineTheme, toRgba } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { contrast } from '../test-kit/contrast';
import { cssVariablesResolver, theme } from './theme';

const full = mergeMantineTheme(DEFAULT_THEME, theme);
const mantine = defaultCssVariablesResolver(full);
const ours = cssVariablesResolver(full);

/** The CSS variables of a scheme as the page gets them: Mantine's, then the app's on top. */
function variables(scheme: 'light' | 'dark'): Record<string, string> {
  return { ...mantine.variables, ...mantine[scheme], ...ours.variables, ...ours[scheme] };
}

/** A variable's colour, following `var(--x)` references. */
function resolve(vars: Record<string, string>, name: string): string {
  let value = vars[name];
  for (let depth = 0; value?.startsWith('var('); depth += 1) {
    if (depth > 10) throw new Error(`${name} refers in a loop`);
    value = vars[/^var\((--[\w-]+)\)$/.exec(value)?.[1] ?? ''];
  }
  if (!value) throw new Error(`${name} is not defined`);
  return value;
}

/** A translucent colour laid over an opaque one, as the browser paints it. */
function over(top: string, under: string): string {
  const t = toRgba(top);
  const u = toRgba(under);
  const mix = (a: number, b: number) => Math.round(a * t.a + b * (1 - t.a));
  return `rgb(${mix(t.r, u.r)}, ${mix(t.g, u.g)}, ${mix(t.b, u.b)})`;
}

// Where red text stands: the page, an input, a striped table row and the red alert (Mantine's light variant).
const BACKGROUNDS = ['--mantine-color-body', '--mantine-color-default', '--mantine-color-default-hover', '--mantine-color-red-light'];
// Field errors (`--mantine-color-error`), `c="red"` text, and the title and subtle buttons of a red alert.
const RED_TEXT = ['--mantine-color-error', '--mantine-color-red-text', '--mantine-color-red-light-color'];

describe('theme', () => {
  for (const scheme of ['light', 'dark'] as const) {
    it(`gives every red text at least 4.5:1 (WCAG AA) on the backgrounds it is shown on, ${scheme}`, () => {
      const vars = variables(scheme);
      const body = resolve(vars, '--mantine-color-body');
      const failing: string[] = [];
      for (const text of RED_TEXT) {
        for (const background of BACKGROUNDS) {
          const ground = over(resolve(vars, background), body);
          const ratio = contrast(over(resolve(vars, text), ground), ground);
          if (ratio < 4.5) failing.push(`${text} on ${background}: ${ratio.toFixed(2)}:1`);
        }
      }
      expect(failing).toEqual([]);
    });
  }

  for (const scheme of ['light', 'dark'] as const) {
    it(`gives a switch that is off a track of at least 3:1 against the page and its white thumb (WCAG 1.4.11), ${scheme}`, () => {
      const vars = variables(scheme);
      const track = resolve(vars, '--app-switch-track-off');
      expect(contrast(track, resolve(vars, '--mantine-color-body'))).toBeGreaterThanOrEqual(3);
      expect(contrast(track, resolve(vars, '--mantine-color-white'))).toBeGreaterThanOrEqual(3);
    });
  }

  it('keeps the error red a red (contrast is not bought by turning it black or grey)', () => {
    for (const scheme of ['light', 'dark'] as const) {
      const { r, g, b } = toRgba(resolve(variables(scheme), '--mantine-color-error'));
      expect(r - Math.max(g, b)).toBeGreaterThanOrEqual(100);
    }
  });

  it('keeps the text of red subtle buttons and light alerts a red in both schemes, not a white or grey with a tint of red', () => {
    for (const scheme of ['light', 'dark'] as const) {
      const { r, g, b } = toRgba(resolve(variables(scheme), '--mantine-color-red-light-color'));
      expect(r - Math.max(g, b), scheme).toBeGreaterThanOrEqual(80);
    }
  });
});
