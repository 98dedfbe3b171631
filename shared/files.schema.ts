/** The file handshake: file types, CSV templates, metadata and grants (docs/service-decisions.md §2 and §4). */
import { z } from 'zod';
import { isReferenceDate } from './dates';
import { LIMITS } from './limits';
import type { RecordKind } from './records.schema';

/** Request `fileType` code -> response name and record kind. */
export const FILE_TYPES = {
  '1': { name: 'Census', kind: 'census' },
  '2': { name: 'Receipt', kind: 'receipt' },
} as const satisfies Record<string, { name: string; kind: RecordKind }>;
export type FileTypeCode = keyof typeof FILE_TYPES;
export type FileTypeName = (typeof FILE_TYPES)[FileTypeCode]['name'];
export const FILE_TYPE_CODES = Object.keys(FILE_TYPES) as FileTypeCode[];
/** In a filter by file type: a file whose type was never read (it was refused before that). */
export const NO_FILE_TYPE = 'none';

export function fileTypeOfKind(kind: RecordKind): FileTypeCode {
  return kind === 'census' ? '1' : '2';
}

/** CSV template columns: the record's field names, in the documented order (order in a file is free). */
export const CSV_COLUMNS = {
  census: [
    'lastName', 'firstName', 'employeeRegistration', 'hireDate', 'employeeStatus', 'eligibleForBenefits',
    'payCycle', 'periodsPerYear', 'grossAnnualSalary', 'salaryPerPeriod', 'standardHours', 'hourlyRate',
    'timeType', 'payrollGroup', 'payrollArea', 'personnelSubArea',
  ],
  receipt: ['lastName', 'firstName', 'ssn', 'employeeRegistration', 'paymentDate', 'amount'],
} as const satisfies Record<RecordKind, readonly string[]>;

export const REQUIRED_COLUMNS = {
  census: ['lastName', 'firstName', 'employeeRegistration', 'hireDate', 'employeeStatus'],
  receipt: CSV_COLUMNS.receipt,
} as const satisfies Record<RecordKind, readonly string[]>;

const MD5_RE = /^[0-9a-fA-F]{32}$/;
/**
 * Characters a file name must not hold, as a regular-expression class (with the `u` flag): control characters
 * (line breaks and tabs among them), line and paragraph separators, and the invisible format characters, among them
 * the marks that reorder text (bidirectional overrides and isolates), zero-width characters, the byte-order mark
 * and the soft hyphen; every other character Unicode says to draw as nothing (Default_Ignorable_Code_Point: the
 * Hangul fillers, the combining grapheme joiner, variation selectors); also lone surrogates and noncharacters. They
 * would forge log lines or make `invoice.csv` look like another name on screen. The uploader's output escapes the same characters (electron/lib/printable-name).
 */
export const UNSAFE_FILE_NAME_CLASS = String.raw`\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}\p{Noncharacter_Code_Point}\p{Default_Ignorable_Code_Point}`;
export const UNSAFE_FILE_NAME_CHARS = new RegExp(`[${UNSAFE_FILE_NAME_CLASS}]`, 'u');

const str = () => z.string({ error: (iss) => (iss.input === undefined ? 'is required' : 'must be a string') });

export const fileMetadataSchema = z.strictObject(
  {
    fileType: str().refine((v) => Object.hasOwn(FILE_TYPES, v), {
      error: `must be one of the file type codes ${FILE_TYPE_CODES.map((c) => `"${c}" (${FILE_TYPES[c].name})`).join(', ')}`,
    }),
    referenceDate: str().refine(isReferenceDate, 'must be a real date written YYYY-MM-DDT00:00:00Z'),
    checksum: str().regex(MD5_RE, 'must be a valid MD5 hexadecimal string (32 hex digits)'),
    fileName: str()
      .max(LIMITS.fileNameMax, `must be at most ${LIMITS.fileNameMax} characters`)
      .refine((v) => /\.csv$/i.test(v), 'must end in .csv')
      .refine((v) => !/[\\/]/.test(v) && !v.includes('..'), 'must be a plain file name without path separators or ..')
      .refine((v) => !UNSAFE_FILE_NAME_CHARS.test(v), 'must not hold control characters, line breaks, or invisible or bidirectional marks')
      .refine((v) => v.length > 4, 'must have a name before .csv'),
  },
  { error: (iss) => (iss.code === 'unrecognized_keys' ? `unknown field(s): ${(iss.keys ?? []).join(', ')}` : 'must be an object') },
);
export type FileMetadata = z.output<typeof fileMetadataSchema> & { fileType: FileTypeCode };

export const submissionRequestSchema = z
  .array(fileMetadataSchema, { error: 'the body must be a JSON array of file metadata' })
  .min(1, 'the array must hold at least one file')
  .max(LIMITS.submissionItems, `at most ${LIMITS.submissionItems} files per request`);

export const uploadGrantSchema = z.object({
  fileName: z.string(),
  fileType: z.enum(['Census', 'Receipt']),
  uploadUrl: z.string().url(),
  expiration: z.string(),
});
export type UploadGrant = z.infer<typeof uploadGrantSchema>;
export const submissionResponseSchema = z.array(uploadGrantSchema);
