import { defineConfig } from 'vitest/config';
import { SummaryReporter } from './test/summary-reporter';

export default defineConfig({
  test: {
    // electron-store imports electron; inlined, it sees the shell tests' stand-in for the electron module.
    server: { deps: { inline: ['electron-store'] } },
    include: ['electron/**/*.test.ts', 'shared/**/*.test.ts', 'renderer/**/*.test.{ts,tsx}', 'test/**/*.test.ts'],
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    allowOnly: false,
    reporters: ['default', new SummaryReporter()],
  },
});
