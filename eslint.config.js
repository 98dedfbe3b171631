// Lint rules that hold the architecture: where code may run decides what it may import.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const nodeBuiltins = [
  'assert', 'buffer', 'child_process', 'crypto', 'dns', 'events', 'fs', 'fs/promises', 'http', 'https',
  'net', 'os', 'path', 'process', 'readline', 'stream', 'stream/promises', 'tls', 'url', 'util', 'worker_threads', 'zlib',
];
const noElectron = { name: 'electron', message: 'Only electron/main and electron/preload may import electron.' };

export default tseslint.config(
  { ignores: ['node_modules', 'dist', 'out', 'coverage', 'bin'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-definitions': ['error', 'type'],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-syntax': ['error', { selector: 'ExportDefaultDeclaration', message: 'Use named exports.' }],
      'no-restricted-imports': ['error', { paths: [noElectron] }],
    },
  },
  {
    files: ['shared/**'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [noElectron, 'react', ...nodeBuiltins.map((name) => ({ name, message: 'shared/ runs everywhere: no Node APIs.' }))],
        patterns: [{ group: ['node:*'], message: 'shared/ runs everywhere: no Node APIs.' },
          { group: ['**/electron/**', '**/renderer/**'], message: 'shared/ depends on nothing of ours.' }],
      }],
    },
  },
  {
    files: ['renderer/**'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [noElectron, ...nodeBuiltins],
        patterns: [{ group: ['node:*'], message: 'The renderer has no Node.' },
          { group: ['**/electron/**'], message: 'The renderer reaches the core only through the bridge API.' }],
      }],
    },
  },
  {
    files: ['electron/core/**', 'electron/server/**', 'shared/**'],
    rules: { 'no-console': 'error' },
  },
  {
    files: ['electron/main/**', 'electron/preload/**'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    files: ['*.config.ts', '*.config.js'],
    rules: { 'no-restricted-syntax': 'off' },
  },
  {
    files: ['**/*.js', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', module: 'writable', __dirname: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
