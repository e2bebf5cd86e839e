/**
 * Conditional fields: a field with `showIf` is shown only while another field of the envelope, named by its label,
 * has a given value (or any value). Pure, and loaded by the signing page too, so the page and the service agree.
 */
import type { FieldErrors } from '../kernel/errors.ts';

/** Shown while the field labelled `label` equals `equals` (when given) and is filled in (when `notEmpty`). */
export interface ShowIf {
  label: string;
  equals?: string | null | undefined;
  notEmpty?: boolean | undefined;
}

interface Conditional {
  id?: string;
  label?: string | null | undefined;
  showIf?: ShowIf | null | undefined;
}

/** A value as a condition reads it: '' when empty; a checkbox is "true" or "false" and counts as filled only when ticked. */
export const isFilled = (value: string) => value.trim() !== '' && value !== 'false';

/** Neither `equals` nor `notEmpty` given: shown once the other field is filled in. */
export function conditionHolds(showIf: ShowIf, value: string): boolean {
  const equals = showIf.equals ?? null;
  if (equals !== null && value !== equals) return false;
  if ((showIf.notEmpty ?? equals === null) && !isFilled(value)) return false;
  return true;
}

/**
 * The rules on conditions over all the fields of one envelope (or template): the label a condition names must be on
 * exactly one field, and conditions must not depend on themselves, however indirectly. `path(i)` names field i.
 */
export function conditionErrors(fields: readonly Conditional[], path: (i: number) => string): FieldErrors {
  const errors: FieldErrors = {};
  const byLabel = new Map<string, number[]>();
  fields.forEach((f, i) => { if (f.label) byLabel.set(f.label, [...(byLabel.get(f.label) ?? []), i]); });
  fields.forEach((f, i) => {
    const target = f.showIf?.label;
    if (target === undefined) return;
    const holders = byLabel.get(target) ?? [];
    if (holders.length === 0) errors[`${path(i)}.showIf.label`] = [`names no field: no field of this envelope is labelled "${target}"`];
    else if (holders.length > 1) errors[`${path(i)}.showIf.label`] = [`"${target}" is the label of ${String(holders.length)} fields: a label a condition names must be unique`];
    else if (holders[0] === i) errors[`${path(i)}.showIf.label`] = ['names the field itself'];
  });
  if (Object.keys(errors).length > 0) return errors;
  const next = (i: number): number | undefined => {
    const target = fields[i]?.showIf?.label;
    return target === undefined ? undefined : byLabel.get(target)?.[0];
  };
  // Each field depends on at most one other: following the chain from each field finds every cycle.
  fields.forEach((_, start) => {
    const seen = new Set<number>([start]);
    for (let at = next(start); at !== undefined; at = next(at)) {
      if (at === start) {
        errors[`${path(start)}.showIf`] = ['forms a cycle: the fields\' conditions depend on each other'];
        break;
      }
      if (seen.has(at)) break;
      seen.add(at);
    }
  });
  return errors;
}

/**
 * The ids of the fields that are shown, given each field's current value (`valueOf`, '' when empty). A field whose
 * condition names a hidden field is hidden too: a hidden field's value counts as empty. Conditions are acyclic
 * (checked at create), so the recursion ends.
 */
export function shownFieldIds<F extends Conditional & { id: string }>(fields: readonly F[], valueOf: (field: F) => string): Set<string> {
  const byLabel = new Map<string, F>();
  for (const f of fields) if (f.label && !byLabel.has(f.label)) byLabel.set(f.label, f);
  const memo = new Map<string, boolean>();
  const shown = (field: F, depth: number): boolean => {
    const known = memo.get(field.id);
    if (known !== undefined) return known;
    const condition = field.showIf;
    let result = true;
    if (condition) {
      const target = byLabel.get(condition.label);
      result = target !== undefined && depth < fields.length && shown(target, depth + 1) && conditionHolds(condition, valueOf(target));
    }
    memo.set(field.id, result);
    return result;
  };
  return new Set(fields.filter((f) => shown(f, 0)).map((f) => f.id));
}
