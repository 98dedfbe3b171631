import { describe, expect, it } from 'vitest';
import { rowsOfJson } from './json-records';
import { recordSchemas } from '../../../shared';
import { MAX_FORM_RECORDS, recordOfRow } from './record-fields';

describe('rowsOfJson', () => {
  it('puts census records in form rows that give the same records back', () => {
    const records = [
      { lastName: 'Smith', firstName: 'Anna', employeeRegistration: 'E-1', hireDate: '2026-01-05', employeeStatus: 'ACTIVE', eligibleForBenefits: false, periodsPerYear: 26, hourlyRate: 21.5, payrollArea: null },
    ];
    const { rows, problems } = rowsOfJson('census', JSON.stringify(records));
    expect(problems).toEqual([]);
    expect(rows.map((r) => recordOfRow('census', r))).toEqual([
      { lastName: 'Smith', firstName: 'Anna', employeeRegistration: 'E-1', hireDate: '2026-01-05', employeeStatus: 'ACTIVE', eligibleForBenefits: false, periodsPerYear: 26, hourlyRate: 21.5 },
    ]);
  });

  it('names the record and field of what the form cannot hold, and loads nothing', () => {
    const { rows, problems } = rowsOfJson('census', JSON.stringify([
      { lastName: 'Smith', hiredate: '2026-01-05' },
      'nope',
      { lastName: 7, hireDate: '2026-02-30', eligibleForBenefits: 'yes' },
    ]));
    expect(rows).toEqual([]);
    expect(problems).toEqual([
      'Record 1 has unknown field(s): hiredate',
      'Record 2 is not a record (it must be { … })',
      'Record 3, Last name: must be text in quotes',
      'Record 3, Hire date: "2026-02-30" is not a real date: February 2026 has 28 days',
      'Record 3, Eligible for benefits: must be true or false, written without quotes ("yes" is text)',
    ]);
  });

  // The audit's record: the service refuses it with five errors; the panel once loaded it rewritten, the day-first
  // 01/06/2026 read as 6 January and the words and quoted numbers made into the values the service wants.
  it('refuses what the service would refuse and the form could not show as given, rather than rewrite it', () => {
    const record = {
      lastName: 'Smith', firstName: 'Anna', employeeRegistration: 'E-1', hireDate: '01/06/2026', employeeStatus: 'on leave',
      payCycle: 'Every two weeks', grossAnnualSalary: '52000.00', periodsPerYear: '26',
    };
    const service = recordSchemas.census.safeParse(record);
    expect(service.success ? [] : service.error.issues.map((i) => i.path.join('.')).sort())
      .toEqual(['employeeStatus', 'grossAnnualSalary', 'hireDate', 'payCycle', 'periodsPerYear']);
    expect(rowsOfJson('census', JSON.stringify([record]))).toEqual({ rows: [], problems: [
      'Record 1, Hire date: "01/06/2026" is not a date written YYYY-MM-DD (year first, like 2026-03-15)',
      'Record 1, Employee status: "on leave" is not one of ACTIVE, ON_LEAVE, TERMINATED',
      'Record 1, Pay cycle: "Every two weeks" is not one of WEEKLY, BIWEEKLY, SEMIMONTHLY, MONTHLY',
      'Record 1, Pay periods per year: must be a number, written without quotes ("26" is text)',
      'Record 1, Gross annual salary: must be a number, written without quotes ("52000.00" is text)',
    ] });
    expect(rowsOfJson('receipt', JSON.stringify([
      { lastName: '', firstName: 'Bo', ssn: 123456789, paymentDate: 20260315, amount: 1e21, employeeRegistration: 'E-2' },
    ])).problems).toEqual([
      'Record 1, Last name: must not be empty',
      'Record 1, SSN: must be text in quotes',
      'Record 1, Payment date: must be a date in quotes, written YYYY-MM-DD (like "2026-03-15")',
      'Record 1, Amount: must be at most 999,999,999,999.99',
    ]);

    // What the form holds as given goes in, for its own check (the same schema) to mark: the same record is sent.
    const records = [{ lastName: 'Smith', employeeRegistration: 'E'.repeat(31), hireDate: '2026-01-05', periodsPerYear: 400, grossAnnualSalary: -5 }];
    const { rows, problems } = rowsOfJson('census', JSON.stringify(records));
    expect(problems).toEqual([]);
    expect(rows.map((r) => recordOfRow('census', r))).toEqual(records);
    const receipt = { lastName: 'Lee', firstName: 'Bo', ssn: '987-65-4321 ', employeeRegistration: 'E-2', paymentDate: '2026-03-16', amount: 80 };
    expect(rows.length).toBe(1);
    expect(rowsOfJson('receipt', JSON.stringify([receipt])).rows.map((r) => recordOfRow('receipt', r))).toEqual([receipt]);
  });

  it('says that records of the other kind look like that kind, and which choice sends them, instead of naming unknown fields', () => {
    const receipts = [
      { lastName: 'Okafor', firstName: 'Chidi', ssn: '123-45-6789', employeeRegistration: 'E-1', paymentDate: '2026-05-29', amount: 212.4 },
      { lastName: 'Silva', amount: 'x', paymentDate: 'soon' },
    ];
    expect(rowsOfJson('census', JSON.stringify(receipts))).toEqual({ rows: [], problems: [
      'These look like receipt records, not new hires: they have SSN, Payment date, Amount. Choose "Receipts" under "The records are", then put them in the form again.',
    ] });
    const hires = [{ lastName: 'Berg', firstName: 'Ada', employeeRegistration: 'E-2', hireDate: '2026-06-01', employeeStatus: 'ACTIVE', payCycle: 'MONTHLY' }];
    expect(rowsOfJson('receipt', JSON.stringify(hires)).problems).toEqual([
      'These look like census records (new hires and changes), not receipts: they have Hire date, Employee status, Pay cycle. '
        + 'Choose "New hires and changes (census)" under "The records are", then put them in the form again.',
    ]);
  });

  it('names the one record of the other kind in a list, and what is unknown in the others', () => {
    const { rows, problems } = rowsOfJson('census', JSON.stringify([
      { lastName: 'Berg', firstName: 'Ada', employeeRegistration: 'E-2', hireDate: '2026-06-01', employeeStatus: 'ACTIVE' },
      { lastName: 'Okafor', ssn: '123-45-6789', amount: 10 },
      { lastName: 'Kim', bonus: 5 },
    ]));
    expect(rows).toEqual([]);
    expect(problems).toEqual([
      'Record 2 looks like a receipt record (it has SSN, Amount). One list holds one kind of record: put receipts in a list of their own and load it with "Receipts" chosen.',
      'Record 3 has unknown field(s): bonus',
    ]);
  });

  it('refuses text that is not JSON, not a list, an empty list or too many records', () => {
    expect(rowsOfJson('receipt', '{oops').problems[0]).toMatch(/^This is not valid JSON \(/);
    expect(rowsOfJson('receipt', '{}').problems).toEqual(['The JSON must be a list of records: [ { … }, { … } ].']);
    expect(rowsOfJson('receipt', '[]').problems).toEqual(['The list holds no records.']);
    expect(rowsOfJson('receipt', JSON.stringify(Array.from({ length: MAX_FORM_RECORDS + 1 }, () => ({})))).problems[0]).toMatch(/at most 500/);
  });

  it('refuses a number JSON.parse would round, in the words the service refuses it with, and loads nothing', () => {
    const record = (extra: string) => `{"lastName":"Smith","firstName":"Anna","employeeRegistration":"E-1","hireDate":"2026-01-05","employeeStatus":"ACTIVE",${extra}}`;
    expect(rowsOfJson('census', `[${record('"grossAnnualSalary":12.3400000000000000001')}]`)).toEqual({
      rows: [],
      problems: ['The service would refuse this JSON as written: [0].grossAnnualSalary: the number 12.3400000000000000001 cannot be held exactly (it would be read as 12.34); send at most 15 significant digits.'],
    });
    expect(rowsOfJson('census', `[${record('"periodsPerYear":26')}, ${record('"periodsPerYear":26.0000000000000001')}]`).problems)
      .toEqual(['The service would refuse this JSON as written: [1].periodsPerYear: the number 26.0000000000000001 cannot be held exactly (it would be read as 26); send at most 15 significant digits.']);
  });
});
