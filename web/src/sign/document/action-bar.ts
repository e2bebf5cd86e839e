/**
 * The bar at the bottom of the document: progress, "Start"/"Next field", Finish, and one message about finishing,
 * always the current one: what is still missing (gone once nothing is), or why the last Finish did not go through.
 */
import { busy, h, notice } from '../../dom.ts';
import { t } from '../../i18n/i18n.ts';
import type { DocumentState } from '../state.ts';
import { labelOf, missing, nextMissing, progressOf } from './model.ts';

export interface ActionBar {
  element: HTMLElement;
  render(doc: DocumentState): void;
}

/** The message the bar shows for the state, and what identifies it (the same message is not announced twice). */
function message(doc: DocumentState): { id: string; node: HTMLElement } | null {
  const { submit } = doc;
  if (submit.status === 'refused') {
    const lines = [...Object.entries(submit.byField).map(([id, messages]) => {
      const field = doc.fields.find((f) => f.id === id);
      const label = field ? labelOf(field) : null;
      if (field && label) return t('finish.fieldRefusedLabelled', { label, page: field.page, messages: messages.join(', ') });
      return field ? t('finish.fieldRefused', { type: field.type, page: field.page, messages: messages.join(', ') }) : messages.join(', ');
    }), ...submit.other];
    return {
      id: 'refused',
      node: notice('error', h('p', null, t('finish.refused', { detail: submit.message })), lines.length > 0 ? h('ul', null, lines.map((l) => h('li', null, l))) : null),
    };
  }
  if (submit.status === 'retry') {
    const why = submit.problem === 'network' ? t('error.network') : submit.problem === 'busy' ? t('finish.busyElsewhere') : t('error.unavailable');
    return { id: `retry-${submit.problem}`, node: notice('error', `${why} ${t('finish.entriesKept')}`) };
  }
  const count = missing(doc).length;
  if (doc.finishAttempts > 0 && count > 0) {
    return { id: `missing-${String(doc.finishAttempts)}`, node: notice('error', h('span', { class: 'missing-count' }, t('finish.missing', { count }))) };
  }
  return null;
}

export function createActionBar(handlers: { next: () => void; finish: () => void }): ActionBar {
  const progress = h('p', { class: 'progress', id: 'progress', 'aria-live': 'polite' });
  const next = h('button', { type: 'button', class: 'button button-primary button-next', onclick: handlers.next }, t('document.start'));
  const finish = h('button', { type: 'button', class: 'button button-primary', 'aria-describedby': 'finish-hint', onclick: handlers.finish }, t('document.finish'));
  const errorArea = h('div', { class: 'bar-error' });
  const element = h('div', { class: 'action-bar', role: 'region', 'aria-label': t('document.barLabel') },
    h('div', { class: 'action-bar-inner' },
      errorArea,
      h('div', { class: 'bar-text' }, progress, h('p', { class: 'hint', id: 'finish-hint' }, t('document.finishHint'))),
      h('div', { class: 'bar-buttons' }, next, finish),
    ),
  );

  let shownId: string | null = null;
  const render = (doc: DocumentState) => {
    const { done, total } = progressOf(doc);
    const allDone = done === total;
    const text = allDone ? t(total === 0 ? 'document.nothingRequired' : 'document.allDone') : t('document.progress', { done, total });
    if (progress.textContent !== text) progress.textContent = text;
    next.hidden = allDone;
    if (!next.hasAttribute('aria-busy')) {
      const words = t(doc.started ? 'document.nextField' : 'document.start');
      if (next.textContent !== words) next.textContent = words;
      // The guide names where it goes: the field's label, else its type (the visible words come first, WCAG 2.5.3)
      const target = nextMissing(doc);
      const field = target ? labelOf(target) ?? t('field.shown.type', { type: target.type }) : '';
      const inDocument = target?.documentId ? doc.documentNames?.[target.documentId] : undefined;
      const name = !target ? words
        : inDocument ? t('document.guideToIn', { words, field, document: inDocument, page: target.page })
        : t('document.guideTo', { words, field, page: target.page });
      if (next.getAttribute('aria-label') !== name) next.setAttribute('aria-label', name);
    }
    finish.classList.toggle('is-ready', allDone);
    const submitting = doc.submit.status === 'busy';
    if (submitting !== finish.hasAttribute('aria-busy')) busy(finish, submitting ? t('document.signing') : null);
    next.disabled = submitting;

    const m = message(doc);
    if (!m) {
      shownId = null;
      errorArea.replaceChildren();
    } else if (m.id !== shownId) {
      shownId = m.id;
      errorArea.replaceChildren(m.node);
    } else if (m.id.startsWith('missing-')) {
      // The same press, fewer fields left: the count changes in place, without a second alert
      const count = errorArea.querySelector('.missing-count');
      const now = m.node.querySelector('.missing-count')?.textContent ?? '';
      if (count && count.textContent !== now) count.textContent = now;
    }
  };
  return { element, render };
}
