import { describe, expect, it } from 'vitest';
import { editedMarks, movedMarks, serviceMarks, shownMarks } from './service-marks';

const person = (n: number) => `Person ${n}`;
const receipt = (n: number) => `Receipt ${n}`;
/** Row `index` removed from the form. */
const removed = (index: number) => (row: number) => (row === index ? null : row > index ? row - 1 : row);

// Five people: the fourth repeats the second's registration, the fifth the third's (the local server's 422 wording),
// and the fourth has a problem with its hire date.
const refused = serviceMarks([
  { index: 3, message: 'repeats employeeRegistration E-2 of [1]' },
  { index: 4, message: 'repeats employeeRegistration E-3 of [2]' },
  { index: 3, field: 'hireDate', message: 'must be a real calendar date YYYY-MM-DD' },
], 5);

describe('service marks', () => {
  it('shows each mark on the field it is about, naming the other person, the first marked field first', () => {
    expect(shownMarks('census', refused, person)).toEqual({
      fields: {
        3: { employeeRegistration: 'E-2 is also given for Person 2; each must be different in one batch', hireDate: 'must be a real calendar date YYYY-MM-DD' },
        4: { employeeRegistration: 'E-3 is also given for Person 3; each must be different in one batch' },
      },
      records: {},
      first: { row: 3, field: 'employeeRegistration' },
    });
  });

  it('moves the marks with their rows when a row before them is removed, naming the people as they are now', () => {
    const shown = shownMarks('census', movedMarks(refused, removed(0)), person);
    expect(shown.fields).toEqual({
      2: { employeeRegistration: 'E-2 is also given for Person 1; each must be different in one batch', hireDate: 'must be a real calendar date YYYY-MM-DD' },
      3: { employeeRegistration: 'E-3 is also given for Person 2; each must be different in one batch' },
    });
  });

  it('drops the marks of a removed row, and a mark naming a removed row', () => {
    expect(shownMarks('census', movedMarks(refused, removed(3)), person).fields).toEqual({
      3: { employeeRegistration: 'E-3 is also given for Person 3; each must be different in one batch' },
    });
    // The second person removed: the fourth no longer repeats anyone; its hire date is still the service's concern.
    expect(shownMarks('census', movedMarks(refused, removed(1)), person).fields).toEqual({
      2: { hireDate: 'must be a real calendar date YYYY-MM-DD' },
      3: { employeeRegistration: 'E-3 is also given for Person 2; each must be different in one batch' },
    });
  });

  it('drops a field\'s mark when that field is edited, and leaves the rest of the row and the other rows marked', () => {
    const edited = editedMarks('census', refused, 3, 'hireDate');
    expect(shownMarks('census', edited, person).fields).toEqual({
      3: { employeeRegistration: 'E-2 is also given for Person 2; each must be different in one batch' },
      4: { employeeRegistration: 'E-3 is also given for Person 3; each must be different in one batch' },
    });
    // An edit that touches no mark changes nothing.
    expect(editedMarks('census', refused, 0, 'lastName')).toBe(refused);
  });

  it('keeps a mark about a whole record under its row until any field of that row is edited', () => {
    const marks = serviceMarks([{ index: 2, message: 'repeats the receipt (employeeRegistration E-1, paymentDate 2026-07-01, amount 10) of [0]' }], 3);
    const moved = movedMarks(marks, removed(1));
    const words = 'is the same receipt as Receipt 1 (same employee registration, payment date and amount)';
    expect(shownMarks('receipt', moved, receipt)).toEqual({ fields: {}, records: { 1: [words] } });
    expect(shownMarks('receipt', editedMarks('receipt', moved, 0, 'amount'), receipt).records).toEqual({ 1: [words] });
    expect(shownMarks('receipt', editedMarks('receipt', moved, 1, 'amount'), receipt).records).toEqual({});
  });

  it('names a field the form does not show in the record\'s problems', () => {
    const marks = serviceMarks([{ index: 0, field: 'bonus', message: 'is not known' }], 1);
    expect(shownMarks('census', marks, person)).toEqual({ fields: {}, records: { 0: ['bonus is not known'] } });
  });
});
