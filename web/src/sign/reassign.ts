/** "Someone else should sign": the signer names who signs in their place (when the sender allows it); a modal dialog. */
import { api, asApiError, idempotencyKeys, signingPath } from '../api.ts';
import { busy, h, notice, uid } from '../dom.ts';
import { t } from '../i18n/i18n.ts';
import { signingRoute } from '../problems.ts';
import type { Page } from './state.ts';

/** Sending again after a lost answer (the same person) is answered from the first request's record. */
const reassignKey = idempotencyKeys();
const MAX_REASON = 1000;

export function reassignDialog(page: Page): void {
  const [nameId, emailId, reasonId, titleId] = [uid('reassign-name'), uid('reassign-email'), uid('reassign-reason'), uid('reassign-title')];
  const errorBox = h('div');
  const name = h('input', { id: nameId, type: 'text', autocomplete: 'off', maxlength: 200, required: true });
  const email = h('input', { id: emailId, type: 'email', autocomplete: 'off', maxlength: 254, required: true });
  const reason = h('textarea', { id: reasonId, rows: 3, maxlength: MAX_REASON });
  const confirm = h('button', { type: 'submit', class: 'button button-primary' }, t('reassign.confirm'));
  const cancel = h('button', { type: 'button', class: 'button button-secondary' }, t('action.cancel'));
  const dialog = h('dialog', { class: 'dialog', 'aria-labelledby': titleId, 'data-dialog': 'reassign' },
    h('form', { method: 'dialog', class: 'stack' },
      h('h2', { id: titleId }, t('reassign.title')),
      h('p', null, t('reassign.intro')),
      h('div', { class: 'form-row' }, h('label', { for: nameId }, t('reassign.nameLabel')), name),
      h('div', { class: 'form-row' }, h('label', { for: emailId }, t('reassign.emailLabel')), email),
      h('div', { class: 'form-row' }, h('label', { for: reasonId }, t('reassign.reasonLabel')), reason),
      errorBox,
      h('div', { class: 'dialog-actions' }, cancel, confirm),
    ),
  );
  cancel.addEventListener('click', () => { dialog.close(); });
  dialog.addEventListener('close', () => { dialog.remove(); });
  confirm.addEventListener('click', (event) => {
    event.preventDefault();
    // The browser's own check first: a name, and an address that looks like one
    for (const input of [name, email]) {
      input.setAttribute('aria-invalid', String(!input.checkValidity() || input.value.trim() === ''));
    }
    if (!name.checkValidity() || name.value.trim() === '' || !email.checkValidity()) {
      errorBox.replaceChildren(notice('error', t('reassign.incomplete')));
      (name.value.trim() === '' ? name : email).focus();
      return;
    }
    busy(confirm, t('reassign.busy'));
    const body = { name: name.value.trim(), email: email.value.trim(), reason: reason.value.trim() || null };
    void api('POST', signingPath(page.store.state.token, '/reassign'), body, reassignKey(body)).then(() => {
      dialog.close();
      page.finished('reassigned', null);
    }, (error: unknown) => {
      busy(confirm, null);
      const e = asApiError(error);
      if (signingRoute(e).to !== 'inline') {
        dialog.close();
        page.handled(e);
        return;
      }
      const refused = e.status === 400 ? Object.values(e.errors).flat().join(', ') : undefined;
      errorBox.replaceChildren(notice('error', refused ? t('reassign.refused', { detail: refused }) : t(e.status === 0 ? 'error.network' : 'error.unavailable')));
    });
  });
  document.body.append(dialog);
  dialog.showModal();
  name.focus();
}
