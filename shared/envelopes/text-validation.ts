/**
 * Whether a text field's value fits its validation: a format, a length, a pattern. Patterns run on RE2 (re2js, pure
 * JS), whose matching time is linear in the input whatever the pattern; pattern-rules.ts admits only patterns it
 * compiles. Pure, and loaded by the signing page too, so the page and the service agree.
 */
import { RE2JS } from 're2js';
import { TEXT_FORMATS } from './pattern-rules.ts';

export type TextFormat = (typeof TEXT_FORMATS)[number];

export interface TextValidation {
  format?: TextFormat | undefined;
  minLength?: number | undefined;
  maxLength?: number | undefined;
  /** RE2 syntax; the whole value must match. */
  pattern?: string | undefined;
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
