import { describe, expect, it } from 'vitest';
import { patternProblem, textProblem, validationErrors } from '#shared/envelopes/text-validation.ts';

describe('pattern safety', () => {
  it('accepts what RE2 matches in linear time, including nested quantifiers (no backtracking happens)', () => {
    expect(patternProblem('[A-Z]{2}\\d{4}')).toBeNull();
    expect(patternProblem('(a+)+$')).toBeNull();
    expect(patternProblem('\\p{L}+')).toBeNull();
  });

  it('refuses backreferences, lookaround, huge repeats and long patterns', () => {
    expect(patternProblem('(a)\\1')).toMatch(/linear time/);
    expect(patternProblem('(?=a)a')).toMatch(/linear time/);
    expect(patternProblem('(?<!a)b')).toMatch(/linear time/);
    expect(patternProblem('x{1001}')).toMatch(/linear time/);
    expect(patternProblem('a'.repeat(201))).toMatch(/at most 200/);
  });

  it('a pattern that backtracks exponentially in JavaScript matches quickly here', () => {
    // (a+)+$ on "aaaa…b" is the classic catastrophic case for a backtracking engine; RE2 answers at once
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
