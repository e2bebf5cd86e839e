/**
 * What a text field's value must look like: a format, a length, a pattern. Patterns run on RE2 (re2js, pure JS), whose
 * matching time is linear in the input whatever the pattern, and which refuses what would need backtracking
 * (backreferences, lookaround). Pure, and loaded by the signing page too, so the page and the service agree.
 */
import { RE2JS } from 're2js';
import type { FieldErrors } from '../kernel/errors.ts';

export const TEXT_FORMATS = ['email', 'number', 'date'] as const;
export type TextFormat = (typeof TEXT_FORMATS)[number];

export interface TextValidation {
  format?: TextFormat | undefined;
  minLength?: number | undefined;
  maxLength?: number | undefined;
  /** RE2 syntax; the whole value must match. */
  pattern?: string | undefined;
}

export const MAX_PATTERN_CHARS = 200;

/** Why a pattern is refused, or null when RE2 compiles it within the length limit. */
export function patternProblem(pattern: string): string | null {
  if (pattern.length > MAX_PATTERN_CHARS) return `must be at most ${String(MAX_PATTERN_CHARS)} characters`;
  try {
    RE2JS.compile(pattern);
    return null;
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return `is not a pattern that matches in linear time (RE2 syntax; no backreferences or lookaround): ${detail}`;
  }
}

/** The rules on a field's `validation`, keyed by `${path}.validation.<attribute>`. */
export function validationErrors(type: string, validation: TextValidation | null | undefined, path: string): FieldErrors {
  if (!validation) return {};
  const at = (attribute: string) => (path ? `${path}.validation.${attribute}` : `validation.${attribute}`);
  if (type !== 'text') return { [path ? `${path}.validation` : 'validation']: [`only text fields take a validation, not ${type}`] };
  const errors: FieldErrors = {};
  const { minLength, maxLength, pattern } = validation;
  if (minLength !== undefined && maxLength !== undefined && minLength > maxLength) errors[at('minLength')] = ['must not be greater than maxLength'];
  const problem = pattern === undefined ? null : patternProblem(pattern);
  if (problem) errors[at('pattern')] = [problem];
  return errors;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const NUMBER = /^[+-]?(\d+([.,]\d+)?|[.,]\d+)$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function isDate(text: string): boolean {
  const parts = DATE.exec(text);
  if (!parts) return false;
  const [year, month, day] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** What is wrong with a value, as a stable kind the page words in the signer's language; null when it fits. */
export type TextProblem =
  | { kind: 'format'; format: TextFormat }
  | { kind: 'minLength'; min: number }
  | { kind: 'maxLength'; max: number }
  | { kind: 'pattern' };

/** Lengths count code points, as a person counts characters more nearly than UTF-16 units do. */
const characters = (text: string) => Array.from(text).length;

export function textProblem(validation: TextValidation | null | undefined, text: string): TextProblem | null {
  if (!validation) return null;
  const { format, minLength, maxLength, pattern } = validation;
  const value = text.trim();
  if (minLength !== undefined && characters(value) < minLength) return { kind: 'minLength', min: minLength };
  if (maxLength !== undefined && characters(value) > maxLength) return { kind: 'maxLength', max: maxLength };
  if (format === 'email' && !EMAIL.test(value)) return { kind: 'format', format };
  if (format === 'number' && !NUMBER.test(value)) return { kind: 'format', format };
  if (format === 'date' && !isDate(value)) return { kind: 'format', format };
  if (pattern !== undefined && !RE2JS.compile(pattern).matches(value)) return { kind: 'pattern' };
  return null;
}

/** The service's English wording of a problem (the page has its own, translated). */
export function describeProblem(problem: TextProblem): string {
  switch (problem.kind) {
    case 'format': return problem.format === 'date' ? 'must be a date as YYYY-MM-DD' : problem.format === 'number' ? 'must be a number' : 'must be an email address';
    case 'minLength': return `must be at least ${String(problem.min)} characters`;
    case 'maxLength': return `must be at most ${String(problem.max)} characters`;
    case 'pattern': return 'does not match the pattern the sender set';
  }
}
