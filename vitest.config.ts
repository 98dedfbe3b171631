import { defineConfig } from 'vitest/config';
import { SummaryReporter } from './test/summary-reporter';

export default defineConfig({
  test: {
    include: ['electron/**/*.test.ts', 'shared/**/*.test.ts', 'renderer/**/*.test.{ts,tsx}', 'test/**/*.test.ts'],
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    allowOnly: false,
    reporters: ['default', new SummaryReporter()],
  },
});
