/**
 * Builds the desktop shell into dist/ with esbuild (the renderer is Vite's job, `npm run build:renderer`):
 *   dist/main/main.js      Electron's main process (ESM; node_modules stay external and ship with the app)
 *   dist/engine/engine.js  the engine's utilityProcess (ESM; must not import electron)
 *   dist/preload/preload.cjs  the sandboxed preload: one CJS file whose only require is electron
 *   dist/icons/            the window, tray and notification pictures
 * A packaged app runs these files: no TypeScript loader.
 */
import { cp, mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type BuildOptions, type Plugin } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist');
// The Node inside Electron 41.
const NODE_TARGET = 'node22';

/** Fails the build when a bundle would import electron (the engine runs outside Electron's main process). */
const noElectron: Plugin = {
  name: 'no-electron',
  setup(b) {
    b.onResolve({ filter: /^electron(\/.*)?$/ }, (args) => ({
      errors: [{ text: `${path.relative(root, args.importer)} imports electron, which the engine must not` }],
    }));
  },
};

const common: BuildOptions = {
  bundle: true,
  platform: 'node',
  target: NODE_TARGET,
  sourcemap: 'linked',
  legalComments: 'none',
  logLevel: 'warning',
  absWorkingDir: root,
};

export const shellBuilds: Record<'main' | 'engine' | 'preload', BuildOptions> = {
  main: {
    ...common,
    entryPoints: ['electron/main/main.ts'],
    outfile: 'dist/main/main.js',
    format: 'esm',
    packages: 'external',
  },
  engine: {
    ...common,
    entryPoints: ['electron/engine/engine-main.ts'],
    outfile: 'dist/engine/engine.js',
    format: 'esm',
    packages: 'external',
    plugins: [noElectron],
  },
  preload: {
    ...common,
    entryPoints: ['electron/preload/preload.ts'],
    outfile: 'dist/preload/preload.cjs',
    // A sandboxed preload can require electron and little else: everything else is inside the bundle.
    format: 'cjs',
    external: ['electron'],
    target: 'chrome140',
  },
};

export async function buildShell(): Promise<void> {
  await Promise.all(['main', 'engine', 'preload', 'icons'].map((dir) => rm(path.join(dist, dir), { recursive: true, force: true })));
  await Promise.all(Object.values(shellBuilds).map((options) => build(options)));
  await mkdir(path.join(dist, 'icons'), { recursive: true });
  await cp(path.join(root, 'resources', 'icons'), path.join(dist, 'icons'), { recursive: true, filter: (src) => !src.endsWith('.ts') });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildShell();
  process.stdout.write('shell built into dist/main, dist/engine, dist/preload and dist/icons\n');
}
