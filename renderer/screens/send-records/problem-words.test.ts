import { describe, expect, it } from 'vitest';
import { fieldMessage, recordMessage } from './problem-words';

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
