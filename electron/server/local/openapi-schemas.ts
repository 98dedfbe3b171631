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
  webhookEventSchema,
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

const MONEY = 'finite, 0 or more, at most 2 decimals';
const REAL_DATE = 'a real calendar date YYYY-MM-DD (2026-02-30 is invalid)';
const TEXT = 'trimmed; must not be empty';

/** The rules zod checks with refinements, per schema and property (docs/service-decisions.md §1, §4 and §6). */
const RULES: Partial<Record<SchemaName, { description?: string; properties?: Record<string, JsonSchema> }>> = {
  CensusRecord: {
    description: 'A census record. Strings are trimmed; null counts as absent; an unknown field is a 400 that names it.',
    properties: {
      lastName: { description: TEXT }, firstName: { description: TEXT }, employeeRegistration: { description: TEXT },
      payrollGroup: { description: TEXT }, payrollArea: { description: TEXT }, personnelSubArea: { description: TEXT },
      hireDate: { description: REAL_DATE, format: 'date' },
      grossAnnualSalary: { description: MONEY }, salaryPerPeriod: { description: MONEY }, hourlyRate: { description: MONEY },
      standardHours: { description: 'finite, 0 to 168' },
    },
  },
  ReceiptRecord: {
    description: 'A receipt record; all six fields are required. An employeeRegistration no census import carried is rejected per record after the 201.',
    properties: {
      lastName: { description: TEXT }, firstName: { description: TEXT }, employeeRegistration: { description: TEXT },
      paymentDate: { description: REAL_DATE, format: 'date' },
      amount: { description: 'finite, more than 0, at most 2 decimals' },
    },
  },
  CensusBatch: { description: '1 or more census records; a repeated employeeRegistration is a 422. The body is at most 5 MB.' },
  ReceiptBatch: {
    description: '1 or more receipt records; a repeated (employeeRegistration, paymentDate, amount) is a 422. The body is at most 5 MB.',
  },
  FileMetadata: {
    properties: {
      fileType: { description: 'file type code: "1" (Census) or "2" (Receipt)', enum: ['1', '2'] },
      referenceDate: { description: 'exactly YYYY-MM-DDT00:00:00Z for a real date', pattern: '^\\d{4}-\\d{2}-\\d{2}T00:00:00Z$' },
      checksum: { description: 'MD5 of the file, 32 hex digits, compared case-insensitively; a checksum already uploaded is a 422' },
      fileName: { description: 'ends in .csv (any case), no path separators or .., at most 255 characters', pattern: '\\.[cC][sS][vV]$' },
    },
  },
  SubmissionRequest: { description: '1 to 100 file metadata items; two items with the same checksum are a 422.' },
  SubmissionResponse: { description: 'The upload grants, in request order. uploadUrl is valid for 15 minutes.' },
  DeliveryAttempt: {
    properties: {
      type: { description: '1 NEW (first attempt), 2 RETRY' },
      status: { description: '1 PENDING, 2 SUCCESS, 3 FAILED' },
      httpStatusCode: { description: 'null while pending and after a time-out or connection error' },
      createdAt: { description: 'UTC written YYYY-MM-DDTHH:MM:SS, without zone designator' },
    },
  },
  FaultRule: { description: 'At least one of latencyMs, errorRate, dropRate. /local/v1 is never faulted; the longest matching pathPrefix wins.' },
  FaultRules: { description: 'At most 100 rules, each pathPrefix once. PUT replaces all rules.' },
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
  return out;
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
    out[id] = applyRules(id as SchemaName, rest);
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
