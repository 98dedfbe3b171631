#!/usr/bin/env node
// The installed command runs the TypeScript sources through tsx, so there is no separate build to forget.
import { register } from 'tsx/esm/api';

register();
await import('../electron/cli/main.ts');
