import { describe, expect, it } from 'vitest';
import { patternProblem, validationErrors } from '#shared/envelopes/pattern-rules.ts';
import { RE2JS } from 're2js';
import { textProblem } from '#shared/envelopes/text-validation.ts';

describe('pattern safety', () => {
  it('accepts the usual patterns, nested repeats included (RE2 matches them without backtracking)', () => {
    for (const pattern of ['[A-Z]{2}\\d{4}', '(a+)+$', '\\d{5}(-\\d{4})?', '[^@\\s]+@[a-z0-9.-]+', '(?:DE|AT)\\d{9,11}', '[a-zA-Z _\\-]*?', 'a|b|', '^\\w+\\.\\w{2,}$']) {
      expect(patternProblem(pattern), pattern).toBeNull();
    }
  });

  it('refuses backreferences, lookaround, named groups, flags, huge or backwards repeats and long patterns', () => {
    for (const pattern of ['(a)\\1', '(?=a)a', '(?<!a)b', '(?i)a', '(?P<x>a)', 'x{1001}', '(a{100}){11}', 'a{5,2}', 'a**', '*a', '[z-a]', '(a', 'a)', '\\']) {
      expect(patternProblem(pattern), pattern).toMatch(/not a supported pattern/);
    }
    expect(patternProblem('a'.repeat(201))).toMatch(/at most 200/);
  });

  it('every pattern it accepts, RE2 compiles: checked over many random patterns', () => {
    const alphabet = ['a', 'b', '.', '*', '+', '?', '|', '(', ')', '(?:', '[', ']', '^', '-', '\\d', '\\w', '\\.', '\\b', '{2}', '{1,3}', '{2,}', '{', '}', '$', 'é', ' '];
    let seed = 7;
    const next = () => { seed = (seed * 1103515245 + 12345) % 2 ** 31; return seed; };
    let accepted = 0;
    for (let n = 0; n < 20_000; n++) {
      const pattern = Array.from({ length: 1 + (next() % 10) }, () => alphabet[next() % alphabet.length]).join('');
      if (patternProblem(pattern) !== null) continue;
      accepted++;
      expect(() => RE2JS.compile(pattern), pattern).not.toThrow();
    }
    expect(accepted).toBeGreaterThan(1000);
  });

  it('a pattern that backtracks exponentially in JavaScript matches quickly here', () => {
    // (a+)+ on "aaaa…b" is the classic catastrophic case for a backtracking engine; RE2 answers at once
    expect(textProblem({ pattern: '(a+)+' }, `${'a'.repeat(5000)}b`)).toEqual({ kind: 'pattern' });
  });
});

describe('validation', () => {
  it('only on text fields; minLength at most maxLength; the pattern checked', () => {
    expect(validationErrors('checkbox', { format: 'email' }, 'fields[0]')).toEqual({ 'fields[0].validation': ['only text fields take a validation, not checkbox'] });
    expect(validationErrors('text', { minLength: 5, maxLength: 2 }, 'fields[0]')).toHaveProperty(['fields[0].validation.minLength']);
    expect(validationErrors('text', { pattern: '(a)\\1' }, '')).toHaveProperty(['validation.pattern']);
    expect(validationErrors('text', { pattern: '\\d+', format: 'number' }, '')).toEqual({});
  });

  it.each([
    ['email', 'ana@example.com', true], ['email', 'ana@example', false], ['email', 'ana example.com', false],
    ['number', '42', true], ['number', '-3.5', true], ['number', '1,25', true], ['number', '4x', false], ['number', '', false],
    ['date', '2026-02-28', true], ['date', '2026-02-30', false], ['date', '28.02.2026', false],
  ] as const)('format %s: %j fits: %s', (format, text, fits) => {
    expect(textProblem({ format }, text) === null).toBe(fits);
  });

  it('lengths count characters; the whole value must match the pattern', () => {
    expect(textProblem({ minLength: 3 }, 'ab')).toEqual({ kind: 'minLength', min: 3 });
    expect(textProblem({ maxLength: 3 }, 'ééé')).toBeNull();
    expect(textProblem({ maxLength: 3 }, 'abcd')).toEqual({ kind: 'maxLength', max: 3 });
    expect(textProblem({ pattern: '[A-Z]{2}\\d{4}' }, 'AB1234')).toBeNull();
    expect(textProblem({ pattern: '[A-Z]{2}\\d{4}' }, 'xAB1234')).toEqual({ kind: 'pattern' });
  });
});
