export * from './bridge-error';
export * from './bridge-views';
export * from './bridge-contract';
