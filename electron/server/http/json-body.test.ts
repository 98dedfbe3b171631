import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inexactNumberIn, isExactNumeral } from '../../../shared';
import { HttpError } from './http-error';
import { parseJsonBody } from './json-body';

const parse = (text: string) => parseJsonBody(Buffer.from(text, 'utf8'));
/** The messages of the 400 that parsing `text` raises. */
const refusal = (text: string): string[] => {
  try {
    parse(text);
  } catch (error) {
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).statusCode).toBe(400);
    return (error as HttpError).messages;
  }
  throw new Error(`${text} was accepted`);
};

describe('number literals that cannot be held exactly', () => {
  it.each([
    ['{"grossAnnualSalary":12.3400000000000000001}', 'grossAnnualSalary: the number 12.3400000000000000001 cannot be held exactly (it would be read as 12.34); send at most 15 significant digits'],
    ['[{"grossAnnualSalary": 999999999999.9900001}]', '[0].grossAnnualSalary: the number 999999999999.9900001 cannot be held exactly (it would be read as 999999999999.99)'],
    ['[{}, {"periodsPerYear":12.0000000000000001}]', '[1].periodsPerYear: the number 12.0000000000000001 cannot be held exactly (it would be read as 12)'],
    ['[1e400]', '[0]: the number 1e400 is too large to be held (the largest is about 1.8e308)'],
    ['{"a":[1,{"b":-1E+400}]}', 'a[1].b: the number -1E+400 is too large to be held'],
    ['{"x":1e-400}', 'x: the number 1e-400 cannot be held exactly (it would be read as 0)'],
    ['{"x":4.9e-324}', 'x: the number 4.9e-324 cannot be held exactly (it would be read as 5e-324)'],
    ['12345678901234567890', 'the number 12345678901234567890 cannot be held exactly (it would be read as 12345678901234567000)'],
    [`{"hourlyRate":\n\t 0.${'0'.repeat(49)}12345678901234567}`, `hourlyRate: the number 0.${'0'.repeat(38)}… (68 characters) cannot be held exactly (it would be read as ${String(Number(`0.${'0'.repeat(49)}12345678901234567`))})`],
    ['{"a\\"b":{"c\\\\":[[],{"d":[0,12.3400000000000000001]}]}}', 'a"b.c\\[1].d[1]: the number 12.3400000000000000001 cannot be held exactly'],
  ])('%s is a 400 naming the literal', (text, message) => {
    const messages = refusal(text);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toContain(message);
  });

  it.each([
    '[0.1, 1e2, 12.30, -0, 0, 999999999999.99, 1E-7, 2.5e+3, 0.30000000000000004, 9007199254740992e0, 5e-324, 1.7976931348623157e308]',
    '{"employeeRegistration":"12345678901234567890"}',
    '{"a":"say \\"12.3400000000000000001\\" and 1e400","b":"\\\\","c":"12345678901234567890","d":1}',
    '{"12345678901234567890":"1e400","e1":["x\\\\\\"", 12.5]}',
    '[{"lastName":"Lastname1000000000000000","amount":100.25}]',
    '{"n":123456789012345.6, "m": 0.00000000000001, "big": 100000000000000000000}',
    '  12.25  ',
  ])('%s is taken', (text) => {
    expect(parse(text)).toEqual(JSON.parse(text));
    expect(inexactNumberIn(text)).toBeUndefined();
  });

  it('takes whatever JSON.stringify writes, and refuses it once a number has one digit too many', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.double({ noNaN: true, noDefaultInfinity: true }).filter((n) => n !== 0), (value, n) => {
        const text = JSON.stringify(value);
        fc.pre(!text.includes('"__proto__"')); // a key of its own 400
        expect(() => parse(text)).not.toThrow();
        // Twenty more significant digits than the shortest form: more than the 17 any shortest form has, so never exact.
        const written = String(n);
        const mantissa = written.split('e')[0]!;
        const longer = `${mantissa}${mantissa.includes('.') ? '' : '.'}00000000000000000001${written.slice(mantissa.length)}`;
        expect(refusal(`{"v":${text},"n":${longer}}`)[0]).toMatch(/^n: the number .* cannot be held exactly/);
      }),
      { numRuns: 2000 },
    );
  });

  it('refuses a literal exactly when it is not the shortest form of its number, wherever it lies in the body', () => {
    const digits = (min: number, max: number) => fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: min, maxLength: max });
    const literal = fc.tuple(fc.boolean(), fc.oneof(fc.constant('0'), fc.tuple(fc.constantFrom(...'123456789'), digits(0, 24)).map(([a, b]) => a + b)),
      fc.option(digits(1, 24)), fc.option(fc.tuple(fc.constantFrom('e', 'E', 'e+', 'e-', 'E-'), fc.integer({ min: 0, max: 400 }))))
      .map(([minus, whole, fraction, exponent]) => `${minus ? '-' : ''}${whole}${fraction === null ? '' : `.${fraction}`}${exponent === null ? '' : `${exponent[0]}${exponent[1]}`}`);
    fc.assert(
      fc.property(literal, fc.string({ maxLength: 40 }), fc.constantFrom('', ' ', '\n  '), (lit, pad, space) => {
        const text = `{"pad":${JSON.stringify(pad)},"n":[${space}${lit}${space}]}`;
        if (isExactNumeral(lit)) expect(parse(text)).toEqual(JSON.parse(text));
        else expect(refusal(text)[0]).toMatch(/^n\[0\]: the number /);
      }),
      { numRuns: 5000 },
    );
  });

  it('finds the literal whatever strings precede it, and only outside strings', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: fc.constantFrom('"', '\\', '1', '.', 'e', ':', ',', '[', '{', ' ', 'x') }), { maxLength: 8 }), (strings) => {
        const text = JSON.stringify({ s: strings, t: strings.join('') });
        expect(inexactNumberIn(text)).toBeUndefined();
        expect(inexactNumberIn(`{"s":${JSON.stringify(strings)},"n":[${strings.length},1e400]}`)).toEqual({ literal: '1e400', path: ['n', 1] });
      }),
      { numRuns: 1000 },
    );
  });
});
