/**
 * Step 2: consent to sign electronically, with the disclosure text (decision 14). The disclosure scrolls in a box of
 * its own and the checkbox with Continue stays at the bottom of the screen, so a small phone shows them at once.
 */
import { api, asApiError, signingPath } from '../api.ts';
import { busy, h, notice, showScreen, uid } from '../dom.ts';
import { t } from '../i18n/i18n.ts';
import { contextOf, type Page } from './state.ts';

export function consentStep(page: Page): void {
  const context = contextOf(page.store.state);
  const boxId = uid('agree');
  const titleId = uid('disclosure-title');
  const errorBox = h('div', { class: 'form-error' });
  const box = h('input', { id: boxId, type: 'checkbox', required: true });
  const go = h('button', { type: 'submit', class: 'button button-primary button-block' }, t('consent.continue'));
  const form = h('form', { class: 'consent-bar', novalidate: true },
    h('div', { class: 'consent-bar-inner stack' },
      errorBox,
      h('div', { class: 'check-row' }, box, h('label', { for: boxId }, t('consent.agree'))),
      go,
    ),
  );
  box.addEventListener('change', () => {
    if (!box.checked) return;
    errorBox.replaceChildren();
    box.removeAttribute('aria-invalid');
  });
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (!box.checked) {
      errorBox.replaceChildren(notice('error', t('consent.tickTheBox')));
      box.setAttribute('aria-invalid', 'true');
      box.focus();
      return;
    }
    errorBox.replaceChildren();
    busy(go, t('consent.saving'));
    void api('POST', signingPath(page.store.state.token, '/consent')).then(() => { page.consented(); }, (error: unknown) => {
      busy(go, null);
      const e = asApiError(error);
      // consent_given (another tab was quicker) goes on to the document like a success
      if (!page.handled(e)) errorBox.replaceChildren(notice('error', t(e.status === 0 ? 'error.network' : 'error.unavailable')));
    });
  });

  const text = h('div', { class: 'disclosure-text' }, h('p', { lang: 'en', dir: 'auto' }, context.consentDisclosure.text),
    h('p', { class: 'hint' }, t('consent.disclosureVersion', { version: context.consentDisclosure.version })));
  const disclosure = h('section', { class: 'disclosure' },
    h('h2', { id: titleId }, t('consent.disclosureTitle')), text);

  showScreen(t('consent.title'),
    h('p', { class: 'eyebrow' }, t('step.of', { step: 2, steps: 3 })),
    h('h1', null, t('consent.title')),
    context.subject ? h('p', { class: 'lead' }, h('strong', { dir: 'auto' }, context.subject)) : null,
    context.message
      ? h('figure', { class: 'sender-message' }, h('figcaption', null, t('consent.senderMessage')), h('blockquote', { dir: 'auto' }, context.message))
      : null,
    disclosure,
    form,
    h('p', { class: 'decline-row' }, h('button', { type: 'button', class: 'button button-link', onclick: () => { page.decline(); } }, t('decline.open'))),
  );
  // Text that scrolls in its box takes keyboard focus, so it can be scrolled without a pointer: a region named by its heading
  const focusableWhenScrolling = () => {
    const scrolls = text.scrollHeight > text.clientHeight + 1;
    for (const [name, value] of [['tabindex', '0'], ['role', 'region'], ['aria-labelledby', titleId]] as const) {
      if (scrolls) text.setAttribute(name, value);
      else text.removeAttribute(name);
    }
  };
  focusableWhenScrolling();
  new ResizeObserver(focusableWhenScrolling).observe(text);
}
