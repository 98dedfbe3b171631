import { describe, expect, it } from 'vitest';
import { rowsOfJson } from './json-records';
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
      'Record 3, Eligible for benefits: must be true or false',
    ]);
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
});
