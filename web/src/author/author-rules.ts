/**
 * The selected field's rules in the side panel: when it is shown (`showIf`, naming another field by its label), what
 * a text field's value must look like (`validation`), and an attachment field's formats and largest file. Each is a
 * change of the field like any other: saved through the same route, taken back on screen when the API refuses it.
 */
import { h, type JSX } from 'preact';
import type { ShowIf } from '#shared/envelopes/field-conditions.ts';
import type { TextValidation } from '#shared/envelopes/text-validation.ts';
import { ATTACHMENT_FORMATS, MAX_ATTACHMENT_BYTES, type AttachmentFormat } from '#shared/kernel/model.ts';
import { formatNumber, t } from '../i18n/i18n.ts';
import { Entry } from './author-entry.ts';
import type { Editor } from './author-state.ts';
import type { EditorField } from './author-store.ts';

const MB = 1024 * 1024;
const FORMATS = ['email', 'number', 'date'] as const;
const text = (event: Event) => (event.target as HTMLInputElement | HTMLSelectElement).value;

/** How a condition reads its field: filled in, ticked or not (a checkbox), or equal to a value. */
type Test = 'filled' | 'ticked' | 'unticked' | 'equals';

function testOf(showIf: ShowIf, checkbox: boolean): Test {
  const equals = showIf.equals ?? null;
  if (equals === null) return checkbox ? 'ticked' : 'filled';
  if (checkbox && (equals === 'true' || equals === 'false')) return equals === 'true' ? 'ticked' : 'unticked';
  return 'equals';
}

function conditionOf(label: string, test: Test, value: string): ShowIf {
  switch (test) {
    case 'filled': return { label, notEmpty: true };
    case 'ticked': return { label, equals: 'true' };
    case 'unticked': return { label, equals: 'false' };
    case 'equals': return { label, equals: value };
  }
}

function Condition({ editor, field }: { editor: Editor; field: EditorField }) {
  const set = (showIf: ShowIf | null) => { editor.store.update(field.id, { showIf }); };
  // Each label once: a label two fields carry is offered too, and the API says why it cannot be named
  const labels = [...new Set(editor.store.fields.filter((f) => f.id !== field.id && f.label).map((f) => f.label ?? ''))].sort((a, b) => a.localeCompare(b));
  const showIf = field.showIf;
  if (showIf && !labels.includes(showIf.label)) labels.push(showIf.label);
  const target = showIf ? editor.store.fields.find((f) => f.id !== field.id && f.label === showIf.label) : undefined;
  const checkbox = target?.type === 'checkbox';
  const test = showIf ? testOf(showIf, checkbox) : 'filled';
  const tests: Test[] = checkbox ? ['ticked', 'unticked'] : ['filled', 'equals'];
  return h('fieldset', { class: 'arules', 'data-rules': 'condition' },
    h('legend', null, t('author.condition')),
    labels.length === 0 && !showIf ? h('p', { class: 'ahint' }, t('author.conditionNeedsLabel')) : null,
    h('label', { class: 'afield-row' }, h('span', null, t('author.conditionField')),
      h('select', {
        value: showIf?.label ?? '', disabled: labels.length === 0 && !showIf,
        onChange: (e: Event) => {
          const label = text(e);
          const ticked = editor.store.fields.some((f) => f.id !== field.id && f.label === label && f.type === 'checkbox');
          set(label ? conditionOf(label, ticked ? 'ticked' : 'filled', '') : null);
        },
      }, h('option', { value: '' }, t('author.conditionAlways')), labels.map((label) => h('option', { key: label, value: label }, label)))),
    showIf ? h('label', { class: 'afield-row' }, h('span', null, t('author.conditionTest')),
      h('select', { value: test, onChange: (e: Event) => { set(conditionOf(showIf.label, text(e) as Test, showIf.equals ?? '')); } },
        tests.map((k) => h('option', { key: k, value: k }, testName(k))))) : null,
    showIf && test === 'equals' ? h('label', { class: 'afield-row' }, h('span', null, t('author.conditionValue')),
      h(Entry, { type: 'text', maxLength: 1000, value: showIf.equals ?? '', onCommit: (equals) => { set({ label: showIf.label, equals }); } })) : null);
}

function testName(test: Test): string {
  switch (test) {
    case 'filled': return t('author.conditionFilled');
    case 'ticked': return t('author.conditionTicked');
    case 'unticked': return t('author.conditionUnticked');
    case 'equals': return t('author.conditionEquals');
  }
}

function formatName(format: (typeof FORMATS)[number]): string {
  switch (format) {
    case 'email': return t('author.formatEmail');
    case 'number': return t('author.formatNumber');
    case 'date': return t('author.formatDate');
  }
}

function Validation({ editor, field }: { editor: Editor; field: EditorField }) {
  const rules = field.validation ?? {};
  const set = (patch: Partial<TextValidation>) => {
    // A rule left empty is no rule: no key at all, and no validation when none is left
    const next = Object.fromEntries(Object.entries({ ...rules, ...patch } as Record<string, unknown>).filter((entry) => entry[1] !== undefined)) as TextValidation;
    editor.store.update(field.id, { validation: Object.keys(next).length > 0 ? next : null });
  };
  const count = (typed: string) => (typed.trim() === '' ? undefined : Number(typed));
  return h('fieldset', { class: 'arules', 'data-rules': 'validation' },
    h('legend', null, t('author.validation')),
    h('label', { class: 'afield-row' }, h('span', null, t('author.format')),
      h('select', { value: rules.format ?? '', onChange: (e: Event) => { set({ format: (text(e) || undefined) as TextValidation['format'] }); } },
        h('option', { value: '' }, t('author.formatAny')), FORMATS.map((f) => h('option', { key: f, value: f }, formatName(f))))),
    h('div', { class: 'aplacement' },
      h('label', { class: 'anumber' }, h('span', null, t('author.minLength')),
        h(Entry, { type: 'number', min: 0, step: 1, inputMode: 'numeric', value: rules.minLength === undefined ? '' : String(rules.minLength), onCommit: (n) => { set({ minLength: count(n) }); } })),
      h('label', { class: 'anumber' }, h('span', null, t('author.maxLength')),
        h(Entry, { type: 'number', min: 0, step: 1, inputMode: 'numeric', value: rules.maxLength === undefined ? '' : String(rules.maxLength), onCommit: (n) => { set({ maxLength: count(n) }); } }))),
    h('label', { class: 'afield-row' }, h('span', null, t('author.pattern')),
      h(Entry, { type: 'text', maxLength: 200, spellcheck: false, autocomplete: 'off', class: 'amono', value: rules.pattern ?? '', 'aria-describedby': 'apattern-hint', onCommit: (pattern) => { set({ pattern: pattern || undefined }); } })),
    h('p', { class: 'ahint', id: 'apattern-hint' }, t('author.patternHint')));
}

function Attachment({ editor, field }: { editor: Editor; field: EditorField }) {
  const accept = field.accept ?? [...ATTACHMENT_FORMATS];
  const toggle = (format: AttachmentFormat, on: boolean) => {
    const next = ATTACHMENT_FORMATS.filter((f) => (f === format ? on : accept.includes(f)));
    editor.store.update(field.id, { accept: next });
  };
  const mb = (field.maxBytes ?? MAX_ATTACHMENT_BYTES) / MB;
  return h('fieldset', { class: 'arules', 'data-rules': 'attachment' },
    h('legend', null, t('author.accept')),
    ATTACHMENT_FORMATS.map((format) => h('label', { key: format, class: 'acheck' },
      h('input', { type: 'checkbox', checked: accept.includes(format), onChange: (e: Event) => { toggle(format, (e.target as HTMLInputElement).checked); } }), format.toUpperCase())),
    h('label', { class: 'afield-row' }, h('span', null, t('author.maxSize', { max: formatNumber(MAX_ATTACHMENT_BYTES / MB) })),
      h(Entry, {
        type: 'number', min: 0.01, step: 0.01, inputMode: 'decimal', value: String(Math.round(mb * 100) / 100),
        onCommit: (typed) => {
          const n = Number(typed);
          if (typed.trim() !== '' && Number.isFinite(n)) editor.store.update(field.id, { maxBytes: Math.round(n * MB) });
        },
      })));
}

/** The rules the selected field's type takes. */
export function Rules({ editor, field }: { editor: Editor; field: EditorField }): JSX.Element {
  return h('div', { class: 'arules-all' },
    h(Condition, { editor, field }),
    field.type === 'text' ? h(Validation, { editor, field }) : null,
    field.type === 'attachment' ? h(Attachment, { editor, field }) : null);
}
