/**
 * Step 1: the one-time code (decision 15). What the step shows follows `state.otp` alone, so a
 * code that no longer works is never announced as sent and valid at the same time.
 */
import { api, asApiError, signingPath } from '../api.ts';
import type { OtpRequestAnswer } from '../api-types.ts';
import { announce, busy, h, notice, showScreen, uid } from '../dom.ts';
import type { MessageKey } from '../i18n/catalogue.ts';
import { formatWait, rich, t } from '../i18n/i18n.ts';
import { contextOf, type OtpError, type OtpState, type Page, type SigningState } from './state.ts';

function maskEmail(email: string): string {
  const [local = '', domain = ''] = email.split('@');
  return `${local.slice(0, 1)}${'*'.repeat(Math.max(3, local.length - 1))}@${domain}`;
}

const secondsLeft = (otp: OtpState) => (otp.waitUntil === null ? 0 : Math.max(0, Math.ceil((otp.waitUntil - Date.now()) / 1000)));

/** The message for an error shown under the form (a void code has its own box instead). */
function errorText(error: OtpError, otp: OtpState): string | null {
  switch (error.kind) {
    case 'format': return t('otp.error.format');
    case 'incorrect': return t('otp.error.incorrect');
    case 'rate_limited': return t(otp.phase === 'void' ? 'otp.error.rateLimitedVoid' : 'otp.error.rateLimited', { wait: formatWait(secondsLeft(otp)) });
    case 'failed': return t(error.status === 0 ? 'error.network' : 'error.unavailable');
    case 'expired':
    case 'burnt': return null;
  }
}

export function otpStep(page: Page): void {
  const { store } = page;
  const context = contextOf(store.state);
  const sms = context.otpChannel === 'sms';
  const setOtp = (change: Partial<OtpState>) => { store.update((s) => { s.otp = { ...s.otp, ...change }; }); };

  const codeId = uid('code');
  const hintId = uid('code-hint');
  const errId = uid('code-error');
  const input = h('input', {
    id: codeId, name: 'code', type: 'text', inputmode: 'numeric', autocomplete: 'one-time-code', pattern: '[0-9]{6}',
    maxlength: 6, required: true, class: 'code-input', 'aria-describedby': hintId, spellcheck: 'false', dir: 'ltr',
  });
  const verify = h('button', { type: 'submit', class: 'button button-primary button-block' }, t('otp.verify'));
  const sendFirst = h('button', { type: 'button', class: 'button button-primary button-block' }, t(sms ? 'otp.sendSms' : 'otp.sendEmail'));
  const resend = h('button', { type: 'button', class: 'button button-link' }, t('otp.resend'));
  const renew = h('button', { type: 'button', class: 'button button-primary button-block' }, t('otp.resend'));
  const errorOne = h('div', { class: 'form-error' });
  const errorBox = h('div', { class: 'form-error' });
  const sentBox = h('div');
  const voidBox = h('div', { class: 'stack' });
  const waitText = h('p', { class: 'hint', hidden: true });

  const request = async (button: HTMLButtonElement) => {
    setOtp({ error: null });
    busy(button, t('otp.sending'));
    try {
      const answer = await api<OtpRequestAnswer>('POST', signingPath(store.state.token, '/otp/request'));
      busy(button, null);
      const to = answer.channel === 'sms' ? (answer.maskedPhone ?? t('otp.yourPhone')) : answer.maskedEmail;
      setOtp({ phase: 'sent', sentTo: to, validMinutes: Math.round(answer.expiresInSeconds / 60), error: null });
      input.value = '';
      input.focus();
    } catch (error) {
      busy(button, null);
      const e = asApiError(error);
      if (e.status === 429) {
        // Nothing sent in this visit, but an earlier code may still work: the signer may enter it meanwhile
        const phase = store.state.otp.phase === 'start' ? 'sent' : store.state.otp.phase;
        setOtp({ phase, waitUntil: Date.now() + (e.retryAfterSeconds ?? 600) * 1000, error: { kind: 'rate_limited' } });
        startCountdown();
        return;
      }
      if (!page.handled(e)) setOtp({ error: { kind: 'failed', status: e.status } });
    }
  };
  for (const button of [sendFirst, resend, renew]) button.addEventListener('click', () => { void request(button); });

  let countdown = 0;
  const startCountdown = () => {
    window.clearInterval(countdown);
    const tick = () => {
      const otp = store.state.otp;
      if (store.state.screen.kind !== 'otp' || secondsLeft(otp) === 0) {
        window.clearInterval(countdown);
        if (store.state.screen.kind === 'otp') setOtp({ waitUntil: null, error: otp.error?.kind === 'rate_limited' ? null : otp.error });
        return;
      }
      waitText.textContent = t('otp.waitText', { wait: formatWait(secondsLeft(otp)) });
    };
    tick();
    countdown = window.setInterval(tick, 1000);
  };

  const form = h('form', { class: 'stack', novalidate: true },
    h('div', { class: 'form-row' },
      h('label', { for: codeId }, t('otp.codeLabel')),
      h('p', { class: 'hint', id: hintId }, t(sms ? 'otp.codeHintSms' : 'otp.codeHintEmail')),
      input,
    ),
    errorBox,
    verify,
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const code = input.value.replace(/\s+/g, '');
    if (!/^\d{6}$/.test(code)) {
      setOtp({ error: { kind: 'format' } });
      input.focus();
      return;
    }
    setOtp({ error: null });
    busy(verify, t('otp.checking'));
    void api('POST', signingPath(store.state.token, '/otp/verify'), { code }).then(() => {
      window.clearInterval(countdown);
      announce(t('otp.accepted'));
      page.advance();
    }, (error: unknown) => {
      busy(verify, null);
      const e = asApiError(error);
      if (page.handled(e)) return;
      if (e.reason === 'code_expired' || e.reason === 'code_burnt') {
        setOtp({ phase: 'void', error: { kind: e.reason === 'code_burnt' ? 'burnt' : 'expired' } });
        renew.focus();
        return;
      }
      setOtp({ error: e.status === 400 ? { kind: e.reason === 'code_incorrect' ? 'incorrect' : 'format' } : { kind: 'failed', status: e.status } });
      input.focus();
      input.select();
    });
  });

  const resendRow = h('div', { class: 'resend' }, h('span', null, t('otp.didntGetIt')), ' ', resend);
  const stepOne = h('div', { class: 'stack' },
    h('p', null, t('otp.intro', { where: sms ? t('otp.yourPhone') : maskEmail(context.signerEmail) })), sendFirst);
  const stepTwo = h('div', { class: 'stack', hidden: true }, sentBox, voidBox, form, resendRow, waitText);

  let shown: OtpState | null = null;
  const render = ({ otp }: SigningState) => {
    if (otp === shown) return; // only what changed is rendered again, so alerts are not read out twice
    const before = shown;
    shown = otp;
    stepOne.hidden = otp.phase !== 'start';
    stepTwo.hidden = otp.phase === 'start';
    form.hidden = otp.phase === 'void';
    resendRow.hidden = otp.phase === 'void';
    voidBox.hidden = otp.phase !== 'void';
    const waiting = secondsLeft(otp) > 0;
    for (const button of [sendFirst, resend, renew]) if (!button.hasAttribute('aria-busy')) button.disabled = waiting;
    waitText.hidden = !waiting;
    if (otp.phase !== before?.phase || otp.sentTo !== before.sentTo) {
      sentBox.replaceChildren(otp.phase === 'sent' && otp.sentTo
        ? notice('success', t('otp.sent', { to: otp.sentTo, minutes: otp.validMinutes })) : '');
    }
    if (otp.phase === 'void' && (before?.phase !== 'void' || otp.error !== before.error)) {
      const key: MessageKey = otp.error?.kind === 'burnt' ? 'otp.void.burnt' : 'otp.void.expired';
      voidBox.replaceChildren(notice('error', t(key)), renew);
    }
    const message = otp.error ? errorText(otp.error, otp) : null;
    errorOne.replaceChildren();
    errorBox.replaceChildren();
    const box = otp.phase === 'sent' ? errorBox : errorOne;
    if (message) box.replaceChildren(notice('error', h('span', { id: errId }, message)));
    const aboutCode = otp.error?.kind === 'format' || otp.error?.kind === 'incorrect';
    input.setAttribute('aria-describedby', aboutCode ? `${hintId} ${errId}` : hintId);
    if (aboutCode) input.setAttribute('aria-invalid', 'true');
    else input.removeAttribute('aria-invalid');
  };

  showScreen(t('otp.title'),
    h('p', { class: 'eyebrow' }, t('step.of', { step: 1, steps: 3 })),
    h('h1', null, t('otp.title')),
    context.subject ? h('p', { class: 'lead' }, rich('otp.lead', { subject: context.subject, strong: (c) => h('strong', null, c) })) : null,
    errorOne,
    stepOne,
    stepTwo,
  );
  store.watch(render);
  if (secondsLeft(store.state.otp) > 0) startCountdown();
}
