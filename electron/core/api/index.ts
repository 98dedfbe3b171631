export * from './api-errors';
export * from './api-client';
export { ProxyConfigError } from './proxy-config';
export { DEFAULT_RETRY } from './retry-policy';
export type { RetryOptions } from './retry-policy';
export type { UploadOptions, UploadResult } from './upload-file';
export { TOKEN_RENEW_MARGIN_MS } from './token-cache';
export * from './failure-words';
