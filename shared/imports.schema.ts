/** Import lifecycle and results (docs/service-decisions.md §3). */
import { z } from 'zod';
import { RECORD_KINDS } from './records.schema';

export const IMPORT_STATUSES = ['AWAITING_UPLOAD', 'QUEUED', 'PROCESSING', 'PROCESSED', 'REJECTED'] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];

/** 201 body of the census and receipt endpoints. */
export const importCreatedSchema = z.object({
  id: z.string().uuid(),
  status: z.literal('QUEUED'),
  records: z.number().int().positive(),
  receivedAt: z.string(),
});
export type ImportCreated = z.infer<typeof importCreatedSchema>;

/** One refused record: `line` (CSV line number, header = 1) for files, `index` (0-based) for JSON batches. */
export const recordErrorSchema = z.object({
  line: z.number().int().optional(),
  index: z.number().int().optional(),
  field: z.string().optional(),
  message: z.string(),
});
export type RecordError = z.infer<typeof recordErrorSchema>;

export const importResultSchema = z.object({
  id: z.string(),
  kind: z.enum(RECORD_KINDS),
  source: z.enum(['json', 'file']),
  fileName: z.string().optional(),
  status: z.enum(IMPORT_STATUSES),
  records: z.number().int().nullable(),
  acceptedRecords: z.number().int(),
  rejectedRecords: z.number().int(),
  errors: z.array(recordErrorSchema),
  /** Why a whole file was unusable (REJECTED). */
  reason: z.string().optional(),
  receivedAt: z.string(),
  processedAt: z.string().optional(),
});
export type ImportResult = z.infer<typeof importResultSchema>;
