import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { NOT_UTF8_REASON } from '../../lib/csv';
import { checkCsv, type CsvCheckOptions } from './csv-check';

const CENSUS_HEADER = 'lastName,firstName,employeeRegistration,hireDate,employeeStatus';
const RECEIPT_HEADER = 'lastName,firstName,ssn,employeeRegistration,paymentDate,amount';
const opts: CsvCheckOptions = { rowChecks: true, maxErrors: 100 };

/** Feeds the text in small chunks so lines and multi-byte characters straddle chunk edges. */
const check = (content: string | Buffer, options: Partial<CsvCheckOptions> = {}) => {
  const bytes = typeof content === 'string' ? Buffer.from(content) : content;
  const chunks: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += 7) chunks.push(bytes.subarray(i, i + 7));
  return checkCsv(Readable.from(chunks), { ...opts, ...options });
};

describe('checkCsv', () => {
  it('tells a census file by its header and counts its rows', async () => {
    const v = await check(`${CENSUS_HEADER}\r\nDoe,Jane,E1,2020-01-31,ACTIVE\r\nRoe,Éric,E2,2021-02-01,ON_LEAVE\r\n`);
    expect(v).toEqual({ ok: true, kind: 'census', rows: 2, rejectedRows: 0, errors: [] });
  });

  it('takes ; as delimiter from the header line and accepts a BOM', async () => {
    const v = await check(`\uFEFF${RECEIPT_HEADER.replaceAll(',', ';')}\nDoe;Jane;123-45-6789;E1;2026-01-31;10.50\n`);
    expect(v).toMatchObject({ ok: true, kind: 'receipt', rows: 1 });
  });

  it('reports row problems with their line numbers and keeps counting', async () => {
    const v = await check(`${CENSUS_HEADER}\nDoe,Jane,E1,2026-02-30,ACTIVE\n\nRoe,Jim,E2,2021-02-01,ACTIVE\nPoe,Ed,E3,2021-02-01,RETIRED\n`);
    expect(v.ok).toBe(true);
    if (!v.ok) return;
    expect(v.rows).toBe(3);
    expect(v.rejectedRows).toBe(2);
    expect(v.errors.map((e) => [e.line, e.field])).toEqual([[2, 'hireDate'], [5, 'employeeStatus']]);
  });

  it('skips row checks when told to, but still checks the whole file', async () => {
    expect(await check(`${CENSUS_HEADER}\nDoe,Jane,E1,bad,ACTIVE\n`, { rowChecks: false })).toMatchObject({ ok: true, rejectedRows: 0 });
    expect(await check(`${CENSUS_HEADER}\n`, { rowChecks: false })).toMatchObject({ ok: false });
  });

  it('without row checks parses only the first data row, leaving later quoting problems to the service', async () => {
    const text = `${CENSUS_HEADER}\nDoe,Jane,E1,2020-01-31,ACTIVE\nRoe,Jim,E2,bad,ACTIVE\n"Poe,Ed,E3,2021-02-01,ACTIVE\n`;
    expect(await check(text, { rowChecks: false })).toEqual({ ok: true, kind: 'census', rows: 1, rejectedRows: 0, errors: [] });
    expect(await check(text)).toMatchObject({ ok: false });
  });

  it('without row checks still refuses bytes that are not UTF-8 anywhere in the file', async () => {
    const rows = 'Doe,Jane,E1,2020-01-31,ACTIVE\n'.repeat(50);
    const latin1 = Buffer.concat([Buffer.from(`${CENSUS_HEADER}\n${rows}`), Buffer.from('Do\xe9,Jane,E1,2020-01-31,ACTIVE\n', 'latin1')]);
    expect(await check(latin1, { rowChecks: false })).toMatchObject({ ok: false, reason: NOT_UTF8_REASON });
  });

  it.each([
    ['empty text', '', 'no header row'],
    ['blank lines only', '\n\n  \n', 'no header row'],
    ['a header only', `${CENSUS_HEADER}\n`, 'no data rows'],
    ['a header without newline', CENSUS_HEADER, 'no data rows'],
    ['an unknown column', `${CENSUS_HEADER},nickname\nDoe,Jane,E1,2020-01-31,ACTIVE,JD\n`, 'unknown column(s): nickname'],
    ['a broken quote', `${CENSUS_HEADER}\n"Doe,Jane,E1,2020-01-31,ACTIVE\n`, 'never closed'],
  ])('refuses %s', async (_name, content, reason) => {
    const v = await check(content);
    expect(v.ok).toBe(false);
    if (!v.ok) expect(v.reason).toContain(reason);
  });

  it('says whether the template could be told at all', async () => {
    expect(await check('a,b\n1,2\n')).toMatchObject({ ok: false, unknownKind: true });
    expect(await check('a,b\n1,2\n', { kind: 'receipt' })).toMatchObject({ ok: false, unknownKind: false });
  });

  it('names missing required columns when the kind is given by the file name', async () => {
    const v = await check('lastName,firstName\nDoe,Jane\n', { kind: 'census' });
    expect(v).toMatchObject({ ok: false, unknownKind: false });
    if (!v.ok) expect(v.reason).toMatch(/missing required column\(s\): employeeRegistration, hireDate, employeeStatus/);
    expect(await check(`${CENSUS_HEADER}\nDoe,Jane,E1,2020-01-31,ACTIVE\n`, { kind: 'receipt' })).toMatchObject({ ok: false });
  });

  it('refuses text that is not UTF-8, even when the bad byte comes last', async () => {
    const latin1 = Buffer.from(`${CENSUS_HEADER}\nDo\xe9,Jane,E1,2020-01-31,ACTIVE\n`, 'latin1');
    expect(await check(latin1)).toMatchObject({ ok: false, reason: NOT_UTF8_REASON });
    const truncated = Buffer.concat([Buffer.from(`${CENSUS_HEADER}\nDoe,Jane,E1,2020-01-31,ACTIVE\n`), Buffer.from([0xc3])]);
    expect(await check(truncated)).toMatchObject({ ok: false, reason: NOT_UTF8_REASON });
  });
});
