export * from './secret-store';
export * from './credential-errors';
export * from './keychain-secret-store';
export * from './resolve-credentials';
export * from './save-credentials';
export * from './keychain-state';
