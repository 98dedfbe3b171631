import { describe, expect, it } from 'vitest';
import { fieldMessage, recordMessage, serviceRecordProblem, withRecordNames } from './problem-words';

describe('fieldMessage', () => {
  it('puts the label before a bare message', () => {
    expect(fieldMessage('receipt', 'ssn', 'must be written 123-45-6789')).toBe('SSN must be written 123-45-6789');
  });
  it('drops an index and field-name prefix the service put in front', () => {
    expect(fieldMessage('census', 'hireDate', '[2].hireDate: must be a real calendar date YYYY-MM-DD'))
      .toBe('Hire date must be a real calendar date YYYY-MM-DD');
    expect(fieldMessage('census', 'hireDate', 'hireDate is required')).toBe('Hire date is required');
  });
  it('keeps an unknown field name as it is', () => {
    expect(fieldMessage('census', 'bonus', 'is not known')).toBe('bonus is not known');
  });
});

describe('recordMessage', () => {
  it('drops the index prefix', () => {
    expect(recordMessage('[2] repeats employeeRegistration E-1 of [0]')).toBe('repeats employeeRegistration E-1 of [0]');
  });
});

describe('serviceRecordProblem', () => {
  const person = (n: number) => `Person ${n}`;
  it('turns the 422 about a repeated registration into a problem of that field, naming the other person', () => {
    expect(serviceRecordProblem('[2] repeats employeeRegistration E-1 of [0]', person))
      .toEqual({ field: 'employeeRegistration', message: 'E-1 is also given for Person 1; each must be different in one batch' });
  });
  it('names the other receipt of a repeated receipt', () => {
    expect(serviceRecordProblem('repeats the receipt (employeeRegistration E-1, paymentDate 2026-01-01, amount 5) of [0]', (n) => `Receipt ${n}`))
      .toEqual({ message: 'is the same receipt as Receipt 1 (same employee registration, payment date and amount)' });
  });
  it('names any other record it points at', () => {
    expect(serviceRecordProblem('[3] clashes with [1]', person)).toEqual({ message: 'clashes with Person 2' });
  });
});

describe('withRecordNames', () => {
  it('names the records a service message points at as the form does', () => {
    expect(withRecordNames('repeats E-1 of [0] and [12]', (n) => `Person ${n}`)).toBe('repeats E-1 of Person 1 and Person 13');
  });
});
