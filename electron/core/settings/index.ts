export * from './settings-store';
export * from './settings-errors';
export * from './base-url';
export * from './settings-overlay';
