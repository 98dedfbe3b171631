import { describe, expect, it } from 'vitest';
import { MAX_FORM_RECORDS, rowsOfJson } from './json-records';
import { recordOfRow } from './record-fields';

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

  it('refuses text that is not JSON, not a list, an empty list or too many records', () => {
    expect(rowsOfJson('receipt', '{oops').problems[0]).toMatch(/^This is not valid JSON \(/);
    expect(rowsOfJson('receipt', '{}').problems).toEqual(['The JSON must be a list of records: [ { … }, { … } ].']);
    expect(rowsOfJson('receipt', '[]').problems).toEqual(['The list holds no records.']);
    expect(rowsOfJson('receipt', JSON.stringify(Array.from({ length: MAX_FORM_RECORDS + 1 }, () => ({})))).problems[0]).toMatch(/at most 500/);
  });
});
