/** Limits of the service (docs/service-decisions.md §1 and §4 to §7). One place for every number. */
export const LIMITS = {
  /** Direct JSON import body (census, receipt). */
  jsonBodyBytes: 5 * 1024 * 1024,
  /** Uploaded CSV file. */
  fileBytes: 100 * 1024 * 1024,
  /** Metadata items in one handshake POST. */
  submissionItems: 100,
  /** Body of a handshake POST (100 items of small metadata fit easily). */
  submissionBodyBytes: 256 * 1024,
  /** Default upload-address lifetime in seconds (15 minutes). */
  uploadTtlSeconds: 900,
  /** Default token lifetime in seconds. */
  tokenTtlSeconds: 1200,
  /** Webhook delivery timeout. */
  deliveryTimeoutMs: 5000,
  /** Retries after the first delivery attempt. */
  deliveryRetries: 5,
  /** Default retry delays before retries 1..5. */
  deliveryRetryDelaysMs: [2000, 4000, 8000, 16000, 32000] as const,
  deliveriesDefaultLimit: 100,
  deliveriesMaxLimit: 1000,
  /** String fields of records. */
  stringMax: 100,
  employeeRegistrationMax: 30,
  fileNameMax: 255,
  /** Messages listed in one error body; a last line says how many more there were. */
  listedErrors: 100,
} as const;
