/**
 * Every class renderer/app.css styles is one a component of the renderer puts on an element: a rule left behind by a change
 * of a screen is dead weight that the next reader takes for something that still matters. Mantine's own classes
 * (`mantine-*`) are Mantine's to set.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/local-server';

const RENDERER = join(ROOT, 'renderer');

/** The renderer's sources, tests left out (a class only a test names is not on screen). */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'test-kit' ? [] : sources(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [readFileSync(path, 'utf8')] : [];
  });
}

describe('app.css', () => {
  it('styles only classes the renderer uses', () => {
    const css = readFileSync(join(RENDERER, 'app.css'), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
    const styled = new Set([...css.matchAll(/\.(-?[A-Za-z_][\w-]*)/g)].map((m) => m[1]!).filter((name) => !name.startsWith('mantine-')));
    // A class is used where a className names it as a whole word in a string of the sources.
    const code = sources(RENDERER).join('\n');
    const unused = [...styled].filter((name) => !new RegExp(`['"\`][^'"\`]*(?<![\\w-])${name}(?![\\w-])[^'"\`]*['"\`]`).test(code));
    expect(styled.size).toBeGreaterThan(10);
    expect(unused).toEqual([]);
  });
});
