export * from './csv-record-reader';
