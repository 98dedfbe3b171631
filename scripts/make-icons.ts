/**
 * Draws the app's icons into resources/icons/ (run `npm run icons` after changing a picture; the PNGs are kept in
 * the repository): the app icon at 512 and 256 px (electron-builder derives .ico and .icns from the 512 one) and
 * one tray picture per state. Shapes are signed distances, 4x4 supersampled for smooth edges.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { encodePng } from './png';

type Rgb = readonly [number, number, number];
/** Coverage of a shape at a point of the unit square (0..1 each way): true when inside. */
type Shape = (x: number, y: number) => boolean;

const roundedSquare = (inset: number, radius: number): Shape => (x, y) => {
  const dx = Math.max(Math.abs(x - 0.5) - (0.5 - inset - radius), 0);
  const dy = Math.max(Math.abs(y - 0.5) - (0.5 - inset - radius), 0);
  return dx * dx + dy * dy <= radius * radius;
};
const circle = (cx: number, cy: number, r: number): Shape => (x, y) => (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
const rect = (x0: number, y0: number, x1: number, y1: number): Shape => (x, y) => x >= x0 && x <= x1 && y >= y0 && y <= y1;
/** An upward arrow: a triangle head over a shaft. */
const arrow = (cx: number, top: number, bottom: number, width: number): Shape => {
  const headBottom = top + width * 0.55;
  return (x, y) => {
    if (y >= top && y <= headBottom) return Math.abs(x - cx) <= ((y - top) / (headBottom - top)) * (width / 2);
    return rect(cx - width * 0.16, headBottom, cx + width * 0.16, bottom)(x, y);
  };
};
const union = (...shapes: Shape[]): Shape => (x, y) => shapes.some((shape) => shape(x, y));

type Layer = { shape: Shape; color: Rgb | ((x: number, y: number) => Rgb) };

function render(size: number, layers: Layer[]): Buffer {
  const rgba = new Uint8Array(size * size * 4);
  const n = 4;
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let r = 0, g = 0, b = 0, a = 0;
      for (let sy = 0; sy < n; sy++) {
        for (let sx = 0; sx < n; sx++) {
          const x = (px + (sx + 0.5) / n) / size;
          const y = (py + (sy + 0.5) / n) / size;
          // The topmost layer covering the sample gives its colour.
          for (let i = layers.length - 1; i >= 0; i--) {
            const layer = layers[i];
            if (layer?.shape(x, y)) {
              const c = typeof layer.color === 'function' ? layer.color(x, y) : layer.color;
              r += c[0]; g += c[1]; b += c[2]; a += 1;
              break;
            }
          }
        }
      }
      const at = (py * size + px) * 4;
      if (a > 0) {
        rgba[at] = Math.round(r / a);
        rgba[at + 1] = Math.round(g / a);
        rgba[at + 2] = Math.round(b / a);
      }
      rgba[at + 3] = Math.round((a / (n * n)) * 255);
    }
  }
  return encodePng(size, size, rgba);
}

const WHITE: Rgb = [255, 255, 255];
const gradient = (x: number, y: number): Rgb => {
  const t = (x + y) / 2;
  return [Math.round(18 + 20 * t), Math.round(110 - 40 * t), Math.round(140 + 60 * t)];
};

function appIcon(size: number): Buffer {
  return render(size, [
    { shape: roundedSquare(0.06, 0.18), color: gradient },
    // A sheet of paper with an upload arrow on it.
    { shape: roundedSquare(0.24, 0.04), color: [236, 244, 250] },
    { shape: union(rect(0.33, 0.66, 0.67, 0.7), rect(0.33, 0.58, 0.6, 0.62)), color: [120, 150, 175] },
    { shape: arrow(0.5, 0.28, 0.53, 0.3), color: [20, 120, 170] },
  ]);
}

const TRAY_COLOURS = { idle: [46, 125, 80], uploading: [25, 110, 200], attention: [214, 120, 20] } as const satisfies Record<string, Rgb>;

function trayIcon(size: number, status: keyof typeof TRAY_COLOURS): Buffer {
  const glyph = status === 'attention'
    ? union(rect(0.44, 0.2, 0.56, 0.6), circle(0.5, 0.74, 0.075))
    : arrow(0.5, 0.2, 0.8, 0.5);
  return render(size, [
    { shape: circle(0.5, 0.5, 0.48), color: TRAY_COLOURS[status] },
    { shape: glyph, color: WHITE },
  ]);
}

export async function makeIcons(outDir: string): Promise<string[]> {
  await mkdir(outDir, { recursive: true });
  const files: Array<[string, Buffer]> = [
    ['icon-512.png', appIcon(512)],
    ['icon-256.png', appIcon(256)],
    ...(Object.keys(TRAY_COLOURS) as Array<keyof typeof TRAY_COLOURS>).map((status): [string, Buffer] => [`tray-${status}.png`, trayIcon(32, status)]),
  ];
  await Promise.all(files.map(([name, data]) => writeFile(path.join(outDir, name), data)));
  return files.map(([name]) => name);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const names = await makeIcons(path.join(root, 'resources', 'icons'));
  process.stdout.write(`wrote ${names.join(', ')} to resources/icons\n`);
}
