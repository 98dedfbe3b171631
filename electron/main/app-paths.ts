/** Where the built pieces are inside the app: everything under dist/, packaged or not. */
import path from 'node:path';

export type AppPaths = {
  rendererDir: string;
  preload: string;
  engine: string;
  iconsDir: string;
};

export function appPaths(appRoot: string): AppPaths {
  const dist = path.join(appRoot, 'dist');
  return {
    rendererDir: path.join(dist, 'renderer'),
    preload: path.join(dist, 'preload', 'preload.cjs'),
    engine: path.join(dist, 'engine', 'engine.js'),
    iconsDir: path.join(dist, 'icons'),
  };
}
