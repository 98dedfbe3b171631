/**
 * components/schemas of the OpenAPI document, generated from the zod contract: request bodies as the
 * input a client may send, responses as the output the server gives. Refinements have no JSON Schema
 * form, so their rules are added as descriptions (and patterns or enums where those say the same).
 */
import { z } from 'zod';
import {
  censusBatchSchema, censusRecordSchema, deliveryAttemptSchema, errorBodySchema, fileMetadataSchema,
  importCreatedSchema, importResultSchema, receiptBatchSchema, receiptRecordSchema, recordErrorSchema,
  submissionRequestSchema, submissionResponseSchema, tokenRequestSchema, tokenResponseSchema, uploadGrantSchema,
  UNSAFE_FILE_NAME_CHARS, webhookEventSchema, NULL_MEANS_ABSENT, LIMITS,
} from '../../../shared';
import {
  faultRuleSchema, faultRulesSchema, healthSchema, requestLogEntrySchema, webhookPutSchema, webhookStateSchema,
} from './local-schemas';

export type JsonSchema = Record<string, unknown> & { properties?: Record<string, JsonSchema>; description?: string };

const INPUT = {
  CensusRecord: censusRecordSchema, CensusBatch: censusBatchSchema,
  ReceiptRecord: receiptRecordSchema, ReceiptBatch: receiptBatchSchema,
  FileMetadata: fileMetadataSchema, SubmissionRequest: submissionRequestSchema,
  TokenRequest: tokenRequestSchema, WebhookRegistration: webhookPutSchema,
  FaultRule: faultRuleSchema, FaultRules: faultRulesSchema,
} satisfies Record<string, z.ZodType>;

const OUTPUT = {
  ErrorBody: errorBodySchema, TokenResponse: tokenResponseSchema, ImportCreated: importCreatedSchema,
  ImportResult: importResultSchema, RecordError: recordErrorSchema, UploadGrant: uploadGrantSchema,
  SubmissionResponse: submissionResponseSchema, DeliveryAttempt: deliveryAttemptSchema,
  WebhookEvent: webhookEventSchema, RequestLogEntry: requestLogEntrySchema, WebhookState: webhookStateSchema,
  Health: healthSchema,
} satisfies Record<string, z.ZodType>;

export type SchemaName = keyof typeof INPUT | keyof typeof OUTPUT;

/**
 * At most 2 decimals is said in words, not as `multipleOf: 0.01`: validators divide in binary floating point, so
 * that keyword refuses amounts the server takes (ajv refuses 0.07 and 19.99, as 0.07 / 0.01 is 7.000000000000001).
 * A proxy built from the document therefore lets 3 decimals through; the server answers them 400.
 */
const TWO_DECIMALS = 'at most 2 decimals (the server refuses more with a 400; not written as multipleOf 0.01, which validators '
  + 'check in binary floating point and which would refuse valid amounts such as 0.07)';
const MONEY = `finite, 0 or more, ${TWO_DECIMALS}`;
/** Text fields are trimmed before they are checked, so one of only whitespace is empty. */
const TEXT = 'trimmed before it is checked: must hold a character other than whitespace; the length is checked once trimmed, '
  + 'so surrounding whitespace beyond maxLength is taken';
const NOT_BLANK = '\\S';
const text = (...names: string[]): Record<string, JsonSchema> =>
  Object.fromEntries(names.map((name) => [name, { description: TEXT, pattern: NOT_BLANK }]));

/** Month and day of a real calendar date, but 29 February: 01-28 in any month, 29-30 but in February, 31 in the long months. */
const MONTH_DAY = '(?:(?:0[1-9]|1[0-2])-(?:0[1-9]|1\\d|2[0-8])|(?:0[13-9]|1[0-2])-(?:29|30)|(?:0[13578]|1[02])-31)';
/** Years 0100 to 9999 (the years the server reads as written). */
const YEAR = '(?:0[1-9]\\d\\d|[1-9]\\d{3})';
/** Leap years from 0100: divisible by 4 but not by 100 (the century 01..99 written first), or by 400. */
const LEAP_YEAR = '(?:(?:0[1-9]|[1-9]\\d)(?:0[48]|[2468][048]|[13579][26])|(?:0[48]|[2468][048]|[13579][26])00)';
/** A real calendar date YYYY-MM-DD as a pattern, leap years included: the same dates as isRealDate in shared/dates.ts. */
const REAL_DATE_PATTERN = `(?:${YEAR}-${MONTH_DAY}|${LEAP_YEAR}-02-29)`;
const REAL_DATE = 'a real calendar date YYYY-MM-DD, years 0100 to 9999 (2026-02-30 is invalid); the pattern checks the calendar, leap years included';

const hex = (code: number) => `\\u${code.toString(16).padStart(4, '0')}`;

/**
 * The characters below U+10000 that `unsafe` matches, as the inside of a pattern's character class (\uXXXX escapes,
 * read alike with and without the u flag). Surrogates are left out: as code units they are halves of the characters
 * beyond U+FFFF, which only some validators read as whole characters.
 */
function basicPlaneClass(unsafe: RegExp): string {
  const ranges: string[] = [];
  let start = -1;
  for (let code = 0; code <= 0x10000; code++) {
    const surrogate = code >= 0xd800 && code <= 0xdfff;
    const hit = code < 0x10000 && !surrogate && unsafe.test(String.fromCharCode(code));
    if (hit && start < 0) start = code;
    if (!hit && start >= 0) {
      ranges.push(start === code - 1 ? hex(start) : `${hex(start)}-${hex(code - 1)}`);
      start = -1;
    }
  }
  return ranges.join('');
}

/**
 * A file name as a pattern, without lookahead: segments of allowed characters joined by single dots (so never ..),
 * at least one character before the .csv ending (any case), no / or \\ and none of the unsafe characters of the basic plane.
 */
function fileNamePattern(): string {
  const allowed = `[^.\\\\/${basicPlaneClass(UNSAFE_FILE_NAME_CHARS)}]`;
  return `^\\.?(?:${allowed}+\\.)*${allowed}+\\.[cC][sS][vV]$`;
}
const FILE_NAME = 'a plain file name ending in .csv (any case) with a name before it: no / or \\, no .., no control characters, '
  + 'line breaks, or invisible or bidirectional marks; at most 255 UTF-16 code units. The pattern says all of this except for characters '
  + 'beyond U+FFFF: the server also refuses lone surrogates and the format characters and noncharacters above U+FFFF (U+E0001, say), '
  + 'and counts a character beyond U+FFFF as 2 where maxLength counts 1';

/** The rules zod checks with refinements, per schema and property (docs/service-decisions.md §1, §4 and §6). */
type Rules = {
  description?: string;
  /** Keywords added to (or replacing) those zod gives a property. */
  properties?: Record<string, JsonSchema>;
  /** Keywords zod gives a property that would refuse what the server takes. */
  omit?: Record<string, string[]>;
  /** Properties the contract leaves optional (for other services) that this server always sends. */
  required?: string[];
};

const RULES: Partial<Record<SchemaName, Rules>> = {
  CensusRecord: {
    description: 'A census record. Strings are trimmed; null counts as absent; an unknown field is a 400 that names it.',
    properties: {
      ...text('lastName', 'firstName', 'employeeRegistration', 'payrollGroup', 'payrollArea', 'personnelSubArea'),
      hireDate: { description: REAL_DATE, format: 'date', pattern: `^${REAL_DATE_PATTERN}$` },
      grossAnnualSalary: { description: MONEY }, salaryPerPeriod: { description: MONEY }, hourlyRate: { description: MONEY },
      standardHours: { description: 'finite, 0 to 168' },
    },
  },
  ReceiptRecord: {
    description: 'A receipt record; all six fields are required. An employeeRegistration no census import carried is rejected per record after the 201.',
    properties: {
      ...text('lastName', 'firstName', 'employeeRegistration'),
      // Trimmed like the text fields; JavaScript's \s is the whitespace String.prototype.trim takes away.
      ssn: { description: 'written 123-45-6789; trimmed before it is checked, so surrounding whitespace is taken', pattern: '^\\s*\\d{3}-\\d{2}-\\d{4}\\s*$' },
      paymentDate: { description: REAL_DATE, format: 'date', pattern: `^${REAL_DATE_PATTERN}$` },
      amount: { description: `finite, more than 0, ${TWO_DECIMALS}` },
    },
  },
  CensusBatch: { description: '1 or more census records; a repeated employeeRegistration is a 422. The body is at most 5 MB.' },
  ReceiptBatch: {
    description: '1 or more receipt records; a repeated (employeeRegistration, paymentDate, amount) is a 422. The body is at most 5 MB.',
  },
  FileMetadata: {
    properties: {
      fileType: { description: 'file type code: "1" (Census) or "2" (Receipt)', enum: ['1', '2'] },
      referenceDate: {
        description: 'exactly YYYY-MM-DDT00:00:00Z for a real calendar date, years 0100 to 9999 (2026-02-30 is invalid); the pattern checks the calendar, leap years included',
        pattern: `^${REAL_DATE_PATTERN}T00:00:00Z$`,
      },
      checksum: { description: 'MD5 of the file, 32 hex digits, compared case-insensitively; a checksum already uploaded is a 422' },
      fileName: { description: FILE_NAME, pattern: fileNamePattern() },
    },
  },
  SubmissionRequest: { description: '1 to 100 file metadata items; two items with the same checksum are a 422.' },
  SubmissionResponse: { description: 'The upload grants, in request order. uploadUrl is valid for 15 minutes.' },
  DeliveryAttempt: {
    // The contract leaves failure optional, for services that do not send it; this server always does.
    required: ['failure'],
    properties: {
      type: { description: '1 NEW (first attempt), 2 RETRY (an automatic retry, or a redelivery asked for with /local/v1/deliveries/{id}/redeliver)' },
      status: { description: '1 PENDING, 2 SUCCESS, 3 FAILED' },
      httpStatusCode: { description: 'null while pending and after a time-out or connection error' },
      durationMs: {
        minimum: 0,
        description: 'the time until the answer, the time-out or the error; 0 while pending and for an attempt not sent; for one a stop '
          + 'ended, the time until the stop; 0 for one a crash left pending',
      },
      attemptCount: {
        minimum: 0, maximum: LIMITS.deliveryRetries,
        description: `the retries performed so far, this attempt included: 0 for the first attempt (type 1), 1 to ${LIMITS.deliveryRetries} for a `
          + `retry (type 2); a redelivery is the next retry, brought forward: one more than the retries done (automatic or asked for), at most ${LIMITS.deliveryRetries}`,
      },
      failure: { description: 'why a FAILED attempt did not deliver, in words (an extension of this service): the non-2xx answer, no answer within 5 s, no connection, not sent, or a stop; null while pending and on success' },
      createdAt: { description: 'UTC written YYYY-MM-DDTHH:MM:SS, without zone designator' },
    },
  },
  FaultRule: { description: 'At least one of latencyMs, errorRate, dropRate, processingDelayMs. /local/v1 is never faulted; the longest matching pathPrefix wins.' },
  FaultRules: { description: 'At most 100 rules, each pathPrefix once. PUT replaces all rules.' },
  WebhookRegistration: {
    omit: { url: ['format', 'maxLength'] },
    properties: {
      // Not format: uri, which would refuse what the server takes (surrounding whitespace), and not maxLength, which
      // counts that whitespace. The pattern is the part of the server's check a pattern can say; the rest is in words.
      url: {
        pattern: '^\\s*[hH][tT][tT][pP][sS]?://',
        description: 'an absolute http or https URL, written scheme://host. Surrounding whitespace is trimmed, and tabs and line breaks '
          + 'removed, before it is checked; it is stored and answered normalised. At most 2048 characters once trimmed. Further rules '
          + '(a 400 otherwise): no user name or password, a host on this machine (localhost, 127.x.x.x, [::1]) unless the server was '
          + 'started with --allow-remote-webhooks, and those of "Webhook URLs" in docs/local-server.md',
      },
    },
  },
};

function applyRules(name: SchemaName, schema: JsonSchema): JsonSchema {
  const rules = RULES[name];
  if (!rules) return schema;
  const out: JsonSchema = { ...schema, ...(rules.description ? { description: rules.description } : {}) };
  if (rules.properties && schema.properties) {
    const props: Record<string, JsonSchema> = { ...schema.properties };
    for (const [key, extra] of Object.entries(rules.properties)) {
      const current = props[key];
      if (!current) throw new Error(`OpenAPI rules name ${name}.${key}, which the schema does not have`);
      const description = [current.description, extra.description].filter(Boolean).join('; ');
      props[key] = { ...current, ...extra, ...(description ? { description } : {}) };
    }
    out.properties = props;
  }
  if (rules.required) out.required = [...new Set([...((schema.required as string[] | undefined) ?? []), ...rules.required])];
  for (const [key, keywords] of Object.entries(rules.omit ?? {})) {
    const props = out.properties ?? {};
    const current = props[key];
    if (!current) throw new Error(`OpenAPI rules name ${name}.${key}, which the schema does not have`);
    props[key] = Object.fromEntries(Object.entries(current).filter(([keyword]) => !keywords.includes(keyword)));
  }
  return out;
}

/** Whether a zod schema drops null-valued keys before checking (a record: null counts as absent). */
const nullMeansAbsent = (schema: z.ZodType) =>
  schema instanceof z.ZodPipe && schema.in instanceof z.ZodTransform && NULL_MEANS_ABSENT.has(schema.in._zod.def.transform as (value: unknown) => unknown);

const allowsNull = (schema: JsonSchema): boolean =>
  schema.type === 'null' || (Array.isArray(schema.type) && schema.type.includes('null'))
  || (Array.isArray(schema.anyOf) && (schema.anyOf as JsonSchema[]).some(allowsNull));

/** The schema that also takes null: a type list (with null in the enum) where zod gave one type, else anyOf. */
function orNull(schema: JsonSchema): JsonSchema {
  if (allowsNull(schema)) return schema;
  if (typeof schema.type === 'string' && !('const' in schema)) {
    return { ...schema, type: [schema.type, 'null'], ...(Array.isArray(schema.enum) ? { enum: [...(schema.enum as unknown[]), null] } : {}) };
  }
  const { description, ...rest } = schema;
  return { anyOf: [rest, { type: 'null' }], ...(description ? { description } : {}) };
}

/**
 * A record drops null-valued keys before it is checked, so an optional field takes null (as absent) and a required
 * one refuses it ("is required"): the optional properties take null.
 */
function withNullableOptionals(schema: JsonSchema): JsonSchema {
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const props = schema.properties ?? {};
  return {
    ...schema,
    properties: Object.fromEntries(Object.entries(props).map(([key, prop]) => [key, required.has(key) ? prop : orNull(prop)])),
  };
}

const URI = (id: string) => `#/components/schemas/${id}`;

function generate(schemas: Record<string, z.ZodType>, io: 'input' | 'output'): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(schemas)) registry.add(schema, { id });
  const { schemas: generated } = z.toJSONSchema(registry, { target: 'draft-2020-12', io, unrepresentable: 'any', uri: URI }) as {
    schemas: Record<string, JsonSchema>;
  };
  const out: Record<string, JsonSchema> = {};
  for (const [id, schema] of Object.entries(generated)) {
    if (id === '__shared') throw new Error('a zod schema shared across components needs its own component name');
    const { $schema: _s, $id: _i, ...rest } = schema;
    const source = schemas[id];
    out[id] = applyRules(id as SchemaName, source && nullMeansAbsent(source) ? withNullableOptionals(rest) : rest);
  }
  return out;
}

/** Every component schema, by name. */
export function componentSchemas(): Record<SchemaName, JsonSchema> {
  return { ...generate(INPUT, 'input'), ...generate(OUTPUT, 'output') } as Record<SchemaName, JsonSchema>;
}

/** The query parameters of a (strict object) query schema, as OpenAPI parameter objects. */
/** A query parameter that the server reads as a whole number: its range, and its default when absent. */
export type IntegerParam = { minimum: number; maximum: number; default?: number };

/**
 * Query parameters of a zod query schema. Values arrive as strings, so zod sees strings; the document says what
 * they mean to a client and a validating proxy: `integers` gives the whole-number parameters with their ranges.
 */
export function queryParameters(schema: z.ZodType, descriptions: Record<string, string> = {}, integers: Record<string, IntegerParam> = {}): Record<string, unknown>[] {
  const json = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' }) as JsonSchema & { required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, prop]) => {
    const description = descriptions[name] ?? prop.description;
    const integer = Object.hasOwn(integers, name) ? integers[name] : undefined;
    return {
      name, in: 'query', required: (json.required ?? []).includes(name),
      ...(description ? { description } : {}),
      schema: integer ? { type: 'integer', ...integer } : prop,
    };
  });
}
