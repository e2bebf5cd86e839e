/** Decline with an optional reason (decision 14): a modal dialog, so it works from any step after the code. */
import { api, asApiError, idempotencyKeys, signingPath } from '../api.ts';
import type { DeclineAnswer, DeclineBody } from '../api-types.ts';
import { busy, h, notice, uid } from '../dom.ts';
import { t } from '../i18n/i18n.ts';
import { signingRoute } from '../problems.ts';
import type { Page } from './state.ts';

/** Declining again after a lost answer (the same reason) is answered from the first request's record. */
const declineKey = idempotencyKeys();
const MAX_REASON = 1000;

export function declineDialog(page: Page): void {
  const reasonId = uid('reason');
  const countId = uid('count');
  const titleId = uid('decline-title');
  const errorBox = h('div');
  const reason = h('textarea', { id: reasonId, rows: 4, maxlength: MAX_REASON, 'aria-describedby': countId });
  const count = h('p', { class: 'hint', id: countId }, t('decline.reasonHint', { max: MAX_REASON }));
  const confirm = h('button', { type: 'submit', class: 'button button-danger' }, t('decline.confirm'));
  const cancel = h('button', { type: 'button', class: 'button button-secondary' }, t('action.cancel'));
  const dialog = h('dialog', { class: 'dialog', 'aria-labelledby': titleId },
    h('form', { method: 'dialog', class: 'stack' },
      h('h2', { id: titleId }, t('decline.title')),
      h('p', null, t('decline.warning')),
      h('div', { class: 'form-row' }, h('label', { for: reasonId }, t('decline.reasonLabel')), reason, count),
      errorBox,
      h('div', { class: 'dialog-actions' }, cancel, confirm),
    ),
  );
  cancel.addEventListener('click', () => { dialog.close(); });
  dialog.addEventListener('close', () => { dialog.remove(); });
  confirm.addEventListener('click', (event) => {
    event.preventDefault();
    busy(confirm, t('decline.busy'));
    const text = reason.value.trim();
    const body: DeclineBody = { reason: text || null };
    void api<DeclineAnswer>('POST', signingPath(page.store.state.token, '/decline'), body, declineKey(body)).then(() => {
      dialog.close();
      page.finished('declined', 'declined');
    }, (error: unknown) => {
      busy(confirm, null);
      const e = asApiError(error);
      const route = signingRoute(e);
      if (route.to !== 'inline') {
        dialog.close();
        page.handled(e);
        return;
      }
      // Stays open with the reason typed in: Decline again sends the same request (and key)
      const refused = e.status === 400 ? e.errors.reason?.join(', ') : undefined;
      errorBox.replaceChildren(notice('error', refused ? t('decline.reasonRefused', { detail: refused }) : t(e.status === 0 ? 'error.network' : 'error.unavailable')));
    });
  });
  document.body.append(dialog);
  dialog.showModal();
  reason.focus();
}
