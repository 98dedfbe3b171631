import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  root: 'renderer',
  base: './',
  plugins: [react()],
  // One bundle on purpose (the app opens from disk); its gzipped size is budgeted by bench:ui, not by this warning.
  build: { outDir: '../dist/renderer', emptyOutDir: true, chunkSizeWarningLimit: 1500 },
});
