import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordError } from '../../../shared';
import { CSV_COLUMNS } from '../../../shared';
import { censusRow, csvText, receiptRow } from '../../../test/helpers/csv-fixtures';
import { finishedImport, grantFor, metadata, putFile, uploadAndProcess } from '../../../test/helpers/file-handshake';
import type { TestServer } from '../../../test/helpers/local-server';
import { api, eventually, getToken, startTestServer } from '../../../test/helpers/local-server';
import { getImport } from '../db/imports-repo';
import { unknownEmployeeMessage } from '../processing/json-batches';

let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await startTestServer();
  token = await getToken(server.url);
});
afterAll(async () => {
  await server.stop();
});

const census = (content: string) => uploadAndProcess(server, token, content, { fileType: '1', fileName: 'census.csv' });
const receipts = (content: string) => uploadAndProcess(server, token, content, { fileType: '2', fileName: 'receipts.csv' });
const errorsOf = (row: { errors: string }) => JSON.parse(row.errors) as RecordError[];

describe('an uploaded census file', () => {
  it('accepts the good rows and refuses the others with their line numbers', async () => {
    const content = csvText('census', [
      censusRow(101),
      censusRow(102, { lastName: 'Multi\r\nLine', hireDate: '2026-02-30' }),
      censusRow(103, { employeeStatus: 'RETIRED', eligibleForBenefits: 'maybe' }),
    ], { bom: true, delimiter: ';', eol: '\r\n' });
    const row = await census(content);
    expect(row).toMatchObject({ status: 'PROCESSED', records: 3, accepted: 1, rejected: 2 });
    expect(errorsOf(row)).toEqual([
      { line: 3, field: 'hireDate', message: 'hireDate must be a real calendar date YYYY-MM-DD' },
      { line: 5, field: 'employeeStatus', message: 'employeeStatus must be one of ACTIVE, ON_LEAVE, TERMINATED' },
      { line: 5, field: 'eligibleForBenefits', message: 'eligibleForBenefits must be true or false' },
    ]);
  });

  it('refuses, per line and on their text, numbers that cannot be read exactly', async () => {
    const content = csvText('census', [
      censusRow(401, { grossAnnualSalary: '12.3400000000000000001' }),
      censusRow(402, { grossAnnualSalary: '999999999999.9900001' }),
      censusRow(403, { periodsPerYear: '12.0000000000000001' }),
      censusRow(404, { grossAnnualSalary: '12.34', periodsPerYear: '12.0' }),
      // 1.5, or 1500 from an export that writes a point between thousands: neither is guessed.
      censusRow(405, { grossAnnualSalary: '1.500' }),
    ]);
    const row = await census(content);
    expect(row).toMatchObject({ status: 'PROCESSED', records: 5, accepted: 1, rejected: 4 });
    expect(errorsOf(row)).toEqual([
      { line: 2, field: 'grossAnnualSalary', message: 'grossAnnualSalary must have at most 2 decimals' },
      { line: 3, field: 'grossAnnualSalary', message: 'grossAnnualSalary must have at most 2 decimals' },
      { line: 4, field: 'periodsPerYear', message: 'periodsPerYear must be a whole number' },
      { line: 6, field: 'grossAnnualSalary', message: 'grossAnnualSalary must be written with at most 2 decimals (1.500 could mean 1.5, or 1500 written with a point between thousands): write the amount you mean as a number with no thousands separator' },
    ]);
  });

  it.each([
    ['a header only', `${CSV_COLUMNS.census.join(',')}\n`, 'the file has a header but no data rows'],
    ['an empty file', '', 'the file is empty: it has no header row'],
    ['an unknown column', csvText('census', [censusRow(1)], { columns: [...CSV_COLUMNS.census, 'bonus'] }), 'the header does not fit the Census template: unknown column(s): bonus'],
    ['a receipt header', csvText('receipt', [receiptRow(1)]), 'the header does not fit the Census template: missing required column(s): hireDate, employeeStatus; unknown column(s): ssn, paymentDate, amount'],
  ])('is rejected as a whole for %s, with the reason', async (_name, content, reason) => {
    const row = await census(content);
    expect(row).toMatchObject({ status: 'REJECTED', reason });
  });
});

describe('an uploaded receipt file', () => {
  it('refuses, per line, receipts of employees no census import has carried', async () => {
    await census(csvText('census', [censusRow(201), censusRow(202)]));
    const json = await api(server.url, token, 'POST', '/law/api/v1/census', [
      { lastName: 'Json', firstName: 'Jo', employeeRegistration: 'J-1', hireDate: '2021-03-04', employeeStatus: 'ACTIVE' },
    ]);
    expect(json.status).toBe(201);
    await eventually(() => (getImport(server.ctx.db, (json.body as { id: string }).id)?.status === 'PROCESSED' ? true : undefined));

    const content = csvText('receipt', [
      receiptRow(201), receiptRow(999), receiptRow(202, { amount: 0 }), receiptRow(202),
      receiptRow(1, { employeeRegistration: 'J-1' }), receiptRow(998),
    ]);
    const row = await receipts(content);
    expect(row).toMatchObject({ status: 'PROCESSED', kind: 'receipt', records: 6, accepted: 3, rejected: 3 });
    expect(errorsOf(row)).toEqual([
      { line: 3, field: 'employeeRegistration', message: unknownEmployeeMessage('E000999') },
      { line: 4, field: 'amount', message: 'amount must be more than 0' },
      { line: 7, field: 'employeeRegistration', message: unknownEmployeeMessage('E000998') },
    ]);
  });

  it('knows every employee of a large census file', async () => {
    const rows = Array.from({ length: 1203 }, (_, i) => censusRow(10_000 + i));
    expect(await census(csvText('census', rows))).toMatchObject({ status: 'PROCESSED', accepted: 1203 });
    const row = await receipts(csvText('receipt', [receiptRow(10_000), receiptRow(10_600), receiptRow(11_202), receiptRow(11_203)]));
    expect(row).toMatchObject({ accepted: 3, rejected: 1 });
    expect(errorsOf(row)).toEqual([{ line: 5, field: 'employeeRegistration', message: unknownEmployeeMessage('E011203') }]);
  });

  it('does not learn employees from a census file that was rejected late', async () => {
    // Good rows first, then a byte that is not UTF-8: the whole file is refused, its employees stay unknown.
    const good = Buffer.from(csvText('census', [censusRow(301), censusRow(302)]));
    const content = Buffer.concat([good, Buffer.from('Caf\xe9,Jo,E000303,2020-01-01,ACTIVE\n', 'latin1')]);
    const grant = await grantFor(server.url, token, metadata(content, { fileName: 'latin1.csv' }));
    expect((await putFile(grant.uploadUrl, content)).status).toBe(200);
    expect(await finishedImport(server, grant.uploadUrl)).toMatchObject({ status: 'REJECTED', reason: 'the file is not UTF-8 text; export or save it as "CSV UTF-8"' });

    const row = await receipts(csvText('receipt', [receiptRow(301)]));
    expect(row).toMatchObject({ status: 'PROCESSED', accepted: 0, rejected: 1 });
  });
});
