/** The screens that end a visit: signed or declined, and a link that cannot be used (one screen per problem). */
import type { MessageKey } from '../i18n/catalogue.ts';
import { rich, t } from '../i18n/i18n.ts';
import { h, showScreen } from '../dom.ts';
import type { LinkProblem } from '../problems.ts';

type ProblemText = Record<'title' | 'heading' | 'text', MessageKey>;

const PROBLEM_TEXT: Record<LinkProblem, ProblemText> = {
  expired: { title: 'problem.expired.title', heading: 'problem.expired.heading', text: 'problem.expired.text' },
  voided: { title: 'problem.voided.title', heading: 'problem.voided.heading', text: 'problem.voided.text' },
  signed: { title: 'problem.signed.title', heading: 'problem.signed.heading', text: 'problem.signed.text' },
  declined: { title: 'problem.declined.title', heading: 'problem.declined.heading', text: 'problem.declined.text' },
  replaced: { title: 'problem.replaced.title', heading: 'problem.replaced.heading', text: 'problem.replaced.text' },
  locked: { title: 'problem.locked.title', heading: 'problem.locked.heading', text: 'problem.locked.text' },
  not_yet: { title: 'problem.notYet.title', heading: 'problem.notYet.heading', text: 'problem.notYet.text' },
  closed: { title: 'problem.closed.title', heading: 'problem.closed.heading', text: 'problem.closed.text' },
  invalid: { title: 'problem.invalid.title', heading: 'problem.invalid.heading', text: 'problem.invalid.text' },
  network: { title: 'problem.network.title', heading: 'problem.network.heading', text: 'problem.network.text' },
  unavailable: { title: 'problem.unavailable.title', heading: 'problem.unavailable.heading', text: 'problem.unavailable.text' },
};

/** A link that cannot be used; `retry` is offered when trying again may help (no answer, a failure on our side). */
export function problemScreen(problem: LinkProblem, detail: string, retry: (() => void) | null, downloadUrl: string | null = null): void {
  const text = PROBLEM_TEXT[problem];
  showScreen(t(text.title),
    h('div', { class: `problem problem-${problem}`, 'data-problem': problem },
      h('h1', null, t(text.heading)),
      // Already signed and everyone has: the signed copy is a click away, not an email still to come
      h('p', null, downloadUrl ? t('download.intro') : t(text.text)),
      downloadUrl ? h('p', null, h('a', { class: 'button button-primary', href: downloadUrl, 'data-download-link': '' }, t('download.title'))) : null,
      detail ? h('p', { class: 'detail' }, h('span', { class: 'visually-hidden' }, t('problem.detailsLabel')), detail) : null,
      retry ? h('button', { type: 'button', class: 'button button-primary', onclick: retry }, t('action.tryAgain')) : null,
    ),
  );
}

export function doneScreen(outcome: 'signed' | 'declined' | 'reassigned', subject: string | null, envelopeStatus: string | null): void {
  if (outcome === 'reassigned') {
    showScreen(t('done.reassigned.title'),
      h('div', { class: 'done done-reassigned', 'data-done': 'reassigned' },
        h('h1', null, t('done.reassigned.heading')),
        h('p', null, t('done.reassigned.text')),
        h('p', null, t('done.closePage')),
      ),
    );
    return;
  }
  if (outcome === 'declined') {
    showScreen(t('done.declined.title'),
      h('div', { class: 'done done-declined', 'data-done': 'declined' },
        h('h1', null, t('done.declined.heading')),
        h('p', null, t('done.declined.text')),
        h('p', null, t('done.closePage')),
      ),
    );
    return;
  }
  showScreen(t('done.signed.title'),
    h('div', { class: 'done done-signed', 'data-done': 'signed' },
      h('div', { class: 'done-mark', 'aria-hidden': 'true' }, '✓'),
      h('h1', null, t('done.signed.heading')),
      subject ? h('p', { class: 'lead' }, rich('done.signed.subject', { subject, strong: (c) => h('strong', null, c) })) : null,
      h('p', null, t(envelopeStatus === 'completed' ? 'done.signed.everyone' : 'done.signed.waiting')),
      h('p', null, t('done.closePage')),
    ),
  );
}
