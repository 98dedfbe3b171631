// Electron's entry: registers tsx so the TypeScript main process runs without a separate build.
require('tsx/cjs');
require('./main.ts');
