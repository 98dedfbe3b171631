/**
 * The service's refusal of one file's handshake item (a 400 or 422 of POST /law/api/v1/payroll-submissions), in the
 * clerk's words. The service names the item by its place in the request and the field by its name
 * (`[0].fileName: must end in .csv`, docs/service-decisions.md §4). The queue asks for one file at a time once a
 * request is refused (grant-step.ts), so the place is always `[0]` and means nothing to a clerk, who sent one file;
 * the field is said as the clerk knows it.
 */
import type { FileMetadata } from '../../../shared';
import type { Failure } from './failures';
import { said } from './failures';

/** The handshake item's fields (shared/files.schema.ts), as a sentence about the file names them. */
const FIELD_WORDS: Record<keyof FileMetadata, string> = {
  fileName: 'its file name',
  fileType: 'its file type',
  referenceDate: 'its reference date',
  checksum: 'its checksum',
};

/** `[0].fileName: must …`, `[0]: unknown field(s): …`: the item's place, the field if one is named, what is wrong. */
const ITEM_MESSAGE = /^\[\d+\](?:\.(\w+))?:\s*(.*)$/s;

/**
 * One message of the service's about the item. A 400 says what its field must be, in words that follow the field's
 * name (shared/validation.ts writes record problems so too): "its file name must end in .csv". A 422's words are a
 * sentence of their own that names the checksum already ("the file january.csv with this checksum was already
 * uploaded …"): only the place goes. A message in another form is left as the service wrote it.
 */
function itemMessage(message: string, status: number): string {
  const match = ITEM_MESSAGE.exec(message);
  if (!match) return message;
  const [, field, rest = ''] = match;
  if (field === undefined || status === 422) return rest;
  const words = Object.hasOwn(FIELD_WORDS, field) ? FIELD_WORDS[field as keyof FileMetadata] : field;
  return `${words} ${rest}`;
}

/** Why the service refused the one file of a handshake; what said() gives for any other failure. */
export function itemRefusal(failure: Failure): string {
  if (failure.kind !== 'http' || failure.messages.length === 0) return said(failure);
  return failure.messages.map((message) => itemMessage(message, failure.status)).join('; ');
}
