/**
 * The signing page, /sign/{token}: the gates in the API's order (spec 3.3) — one-time code, consent —
 * then the document with this signer's fields; a done screen; a screen for every kind of unusable link.
 */
import { api, ApiError, idempotencyKeys, linkProblem, signingPath, type LinkProblem, type OtpRequestAnswer, type SigningContext } from '../api.ts';
import { announce, busy, h, notice, showScreen, uid } from '../dom.ts';
import { showDocument } from './document.ts';
import { clearDraft, ownerOfToken } from './draft.ts';

export interface Session {
  token: string;
  context: SigningContext;
  /** Moves the flow on after a step (re-reading the context) or to an error screen. */
  fail(error: unknown): void;
  done(kind: 'signed' | 'declined', envelopeStatus?: string): void;
  decline(): void;
}

const PROBLEMS: Record<LinkProblem, { title: string; heading: string; text: string }> = {
  expired: {
    title: 'Link expired', heading: 'This signing link has expired',
    text: 'The deadline for signing has passed, or the link is too old. If you still need to sign, ask the sender to send you a new link.',
  },
  voided: {
    title: 'Request withdrawn', heading: 'This signing request was withdrawn',
    text: 'The sender cancelled (voided) this document, so it can no longer be signed. There is nothing more for you to do.',
  },
  signed: {
    title: 'Already signed', heading: 'You have already signed this document',
    text: 'Each signing link can be used once. You will get the signed copy by email when everyone has signed.',
  },
  declined: {
    title: 'Already declined', heading: 'You declined to sign this document',
    text: 'Each signing link can be used once. The sender has been told that you declined.',
  },
  replaced: {
    title: 'Link replaced', heading: 'This link has been replaced',
    text: 'A newer signing link was sent to you. Please use the link in the most recent email.',
  },
  not_yet: {
    title: 'Not your turn yet', heading: 'It’s not your turn to sign yet',
    text: 'Other people sign before you. We will email you when it is your turn.',
  },
  closed: {
    title: 'Signing closed', heading: 'This document is no longer open for signing',
    text: 'Another signer declined, or the signing has ended. Contact the sender if you have questions.',
  },
  invalid: {
    title: 'Link not valid', heading: 'This signing link doesn’t work',
    text: 'Check that you opened the whole link from your email. If it still doesn’t work, ask the sender for a new one.',
  },
  network: {
    title: 'Connection problem', heading: 'We couldn’t reach the signing service',
    text: 'Check your internet connection, then try again.',
  },
  unavailable: {
    title: 'Something went wrong', heading: 'Something went wrong',
    text: 'The signing service could not complete your request. Please try again in a moment.',
  },
};

function problemScreen(token: string, error: ApiError): void {
  const kind = linkProblem(error);
  const p = PROBLEMS[kind];
  const retryable = kind === 'network' || kind === 'unavailable';
  // The link is finished for good: entries kept for it would only linger (a replaced link's signer keeps theirs
  // for the new link, which has the same envelope and signer)
  const finished = kind === 'signed' || kind === 'declined' || kind === 'voided' || kind === 'expired' || kind === 'closed';
  const owner = finished ? ownerOfToken(token) : null;
  if (owner) clearDraft(owner);
  showScreen(p.title,
    h('div', { class: `problem problem-${kind}`, 'data-problem': kind },
      h('h1', null, p.heading),
      h('p', null, p.text),
      error.message ? h('p', { class: 'detail' }, h('span', { class: 'visually-hidden' }, 'Details: '), error.message) : null,
      retryable ? h('button', { type: 'button', class: 'button button-primary', onclick: () => { startSigning(token); } }, 'Try again') : null,
    ),
  );
}

function loadingScreen(text: string): void {
  showScreen('Loading', h('h1', { class: 'visually-hidden' }, text), h('p', { class: 'loading', role: 'status' }, h('span', { class: 'spinner', 'aria-hidden': 'true' }), ` ${text}`));
}

const asApiError = (error: unknown) => (error instanceof ApiError ? error : new ApiError(0, 'network', error instanceof Error ? error.message : String(error)));

function maskEmail(email: string): string {
  const [local = '', domain = ''] = email.split('@');
  return `${local.slice(0, 1)}${'*'.repeat(Math.max(3, local.length - 1))}@${domain}`;
}

function formatWait(seconds: number): string {
  const m = Math.floor(seconds / 60);
  const s = seconds % 60;
  return m > 0 ? `${String(m)} min ${String(s).padStart(2, '0')} s` : `${String(s)} s`;
}

/** Step 1: the one-time code (spec 4.3 otp/request, otp/verify). */
function otpScreen(session: Session, next: () => void): void {
  const { token, context } = session;
  const channel = context.otpChannel === 'sms' ? 'sms' : 'email';
  const where = channel === 'sms' ? 'your phone' : maskEmail(context.signerEmail);
  const errorOne = h('div', { class: 'form-error' });
  const errorBox = h('div', { class: 'form-error' });
  const sentBox = h('div');
  const codeId = uid('code');
  const hintId = uid('code-hint');
  const errId = uid('code-error');
  const input = h('input', {
    id: codeId, name: 'code', type: 'text', inputmode: 'numeric', autocomplete: 'one-time-code', pattern: '[0-9]{6}',
    maxlength: 6, required: true, class: 'code-input', 'aria-describedby': hintId, spellcheck: 'false',
  });
  const verify = h('button', { type: 'submit', class: 'button button-primary button-block' }, 'Verify code');
  const resend = h('button', { type: 'button', class: 'button button-link' }, 'Send a new code');
  const waitText = h('p', { class: 'hint', hidden: true });
  let timer = 0;

  const setError = (message: string | null, aboutCode = false) => {
    const box = stepTwo.hidden ? errorOne : errorBox;
    errorOne.replaceChildren();
    errorBox.replaceChildren();
    box.replaceChildren(message ? notice('error', h('span', { id: errId }, message)) : '');
    if (message && aboutCode) {
      input.setAttribute('aria-invalid', 'true');
      input.setAttribute('aria-describedby', `${hintId} ${errId}`);
    } else {
      input.removeAttribute('aria-invalid');
      input.setAttribute('aria-describedby', hintId);
    }
  };

  const rateLimited = (seconds: number) => {
    window.clearInterval(timer);
    let left = seconds;
    resend.disabled = true;
    sendFirst.disabled = true;
    waitText.hidden = false;
    const tick = () => {
      waitText.textContent = `You can ask for a new code in ${formatWait(left)}.`;
      if (left-- <= 0) {
        window.clearInterval(timer);
        waitText.hidden = true;
        resend.disabled = false;
        sendFirst.disabled = false;
      }
    };
    tick();
    timer = window.setInterval(tick, 1000);
  };

  const request = async (button: HTMLButtonElement) => {
    setError(null);
    busy(button, 'Sending…');
    try {
      const answer = await api<OtpRequestAnswer>('POST', signingPath(token, '/otp/request'));
      busy(button, null);
      const to = answer.channel === 'sms' ? (answer.maskedPhone ?? 'your phone') : answer.maskedEmail;
      const minutes = Math.round(answer.expiresInSeconds / 60);
      sentBox.replaceChildren(notice('success', `We sent a 6-digit code to ${to}. It works for ${String(minutes)} minutes.`));
      stepOne.hidden = true;
      stepTwo.hidden = false;
      input.value = '';
      input.focus();
    } catch (error) {
      busy(button, null);
      const e = asApiError(error);
      if (e.status === 429) {
        const seconds = e.retryAfterSeconds ?? 600;
        if (!stepOne.hidden) {
          // Nothing sent yet in this visit, but an earlier code may still work: let the signer enter it.
          stepOne.hidden = true;
          stepTwo.hidden = false;
        }
        setError(`You have asked for too many codes. Please wait ${formatWait(seconds)} before asking again, or use the last code you received.`);
        rateLimited(seconds);
        return;
      }
      if (e.status === 401 || e.status === 410 || e.status === 409) {
        session.fail(e);
        return;
      }
      setError(e.message);
    }
  };

  const sendFirst = h('button', { type: 'button', class: 'button button-primary button-block', onclick: () => { void request(sendFirst); } },
    channel === 'sms' ? 'Text me a code' : 'Email me a code');
  resend.addEventListener('click', () => { void request(resend); });

  const stepOne = h('div', { class: 'stack' },
    h('p', null, `To keep this document private, we first check that it's you. We will send a 6-digit code to ${where}.`),
    sendFirst,
  );

  const form = h('form', { class: 'stack', novalidate: true },
    h('div', { class: 'form-row' },
      h('label', { for: codeId }, '6-digit code'),
      h('p', { class: 'hint', id: hintId }, channel === 'sms' ? 'Enter the code from the text message.' : 'Enter the code from the email. Check your spam folder if it hasn’t arrived.'),
      input,
    ),
    errorBox,
    verify,
  );
  const stepTwo = h('div', { class: 'stack', hidden: true }, sentBox, form, h('div', { class: 'resend' }, h('span', null, 'Didn’t get it? '), resend), waitText);

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const code = input.value.replace(/\s+/g, '');
    if (!/^\d{6}$/.test(code)) {
      setError('Enter the 6 digits of the code.', true);
      input.focus();
      return;
    }
    setError(null);
    busy(verify, 'Checking…');
    void api('POST', signingPath(token, '/otp/verify'), { code }).then(() => {
      window.clearInterval(timer);
      announce('Code accepted.');
      next();
    }, (error: unknown) => {
      busy(verify, null);
      const e = asApiError(error);
      if (e.status === 401 || e.status === 410 || e.status === 409) {
        session.fail(e);
        return;
      }
      const detail = e.errors.code?.[0];
      setError(e.status === 400 && detail ? `The code ${detail}.` : e.message, e.status === 400);
      input.focus();
      input.select();
    });
  });

  showScreen('Confirm it’s you',
    h('p', { class: 'eyebrow' }, 'Step 1 of 3'),
    h('h1', null, 'Confirm it’s you'),
    context.subject ? h('p', { class: 'lead' }, 'You have been asked to sign ', h('strong', null, context.subject), '.') : null,
    errorOne,
    stepOne,
    stepTwo,
  );
}

/** Step 2: consent to sign electronically, with the disclosure text (spec 3.3). */
function consentScreen(session: Session, next: () => void): void {
  const { token, context } = session;
  const boxId = uid('agree');
  const errorBox = h('div', { class: 'form-error' });
  const box = h('input', { id: boxId, type: 'checkbox', required: true });
  const go = h('button', { type: 'submit', class: 'button button-primary button-block' }, 'Continue to the document');
  const form = h('form', { class: 'stack', novalidate: true },
    h('div', { class: 'check-row' }, box, h('label', { for: boxId }, 'I agree to use electronic records and to sign this document electronically.')),
    go,
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (!box.checked) {
      errorBox.replaceChildren(notice('error', 'Tick the box to agree, or decline to sign.'));
      box.setAttribute('aria-invalid', 'true');
      box.focus();
      return;
    }
    busy(go, 'Saving…');
    void api('POST', signingPath(token, '/consent')).then(next, (error: unknown) => {
      const e = asApiError(error);
      if (e.status === 409) {
        next(); // consent was already recorded (another tab)
        return;
      }
      busy(go, null);
      if (e.status === 401 || e.status === 410) session.fail(e);
      else errorBox.replaceChildren(notice('error', e.message));
    });
  });
  showScreen('Agree to sign electronically',
    h('p', { class: 'eyebrow' }, 'Step 2 of 3'),
    h('h1', null, 'Agree to sign electronically'),
    context.subject ? h('p', { class: 'lead' }, h('strong', null, context.subject)) : null,
    context.message ? h('figure', { class: 'sender-message' }, h('figcaption', null, 'Message from the sender'), h('blockquote', null, context.message)) : null,
    h('section', { class: 'disclosure', 'aria-labelledby': 'disclosure-title' },
      h('h2', { id: 'disclosure-title' }, 'Electronic records and signature disclosure'),
      h('p', null, context.consentDisclosure.text),
      h('p', { class: 'hint' }, `Disclosure version ${context.consentDisclosure.version}`),
    ),
    errorBox,
    form,
    h('p', { class: 'decline-row' }, h('button', { type: 'button', class: 'button button-link', onclick: () => { session.decline(); } }, 'Decline to sign')),
  );
}

/** Decline with an optional reason (spec 4.3 decline); a modal dialog, so it works from any step after the code. */
/** Declining again after a lost answer (the same reason) is answered from the first request's record. */
const declineKey = idempotencyKeys();

function declineDialog(session: Session): void {
  const reasonId = uid('reason');
  const countId = uid('count');
  const errorBox = h('div');
  const reason = h('textarea', { id: reasonId, rows: 4, maxlength: 1000, 'aria-describedby': countId });
  const count = h('p', { class: 'hint', id: countId }, 'Optional, up to 1,000 characters. The sender will see it.');
  const confirm = h('button', { type: 'submit', class: 'button button-danger' }, 'Decline to sign');
  const cancel = h('button', { type: 'button', class: 'button button-secondary' }, 'Cancel');
  const dialog = h('dialog', { class: 'dialog', 'aria-labelledby': 'decline-title' },
    h('form', { method: 'dialog', class: 'stack' },
      h('h2', { id: 'decline-title' }, 'Decline to sign?'),
      h('p', null, 'If you decline, the document is cancelled for everyone and the sender is told. This cannot be undone.'),
      h('div', { class: 'form-row' }, h('label', { for: reasonId }, 'Reason for declining'), reason, count),
      errorBox,
      h('div', { class: 'dialog-actions' }, cancel, confirm),
    ),
  );
  cancel.addEventListener('click', () => { dialog.close(); });
  dialog.addEventListener('close', () => { dialog.remove(); });
  confirm.addEventListener('click', (event) => {
    event.preventDefault();
    busy(confirm, 'Declining…');
    const text = reason.value.trim();
    const body = { reason: text || null };
    void api<{ envelopeStatus?: string }>('POST', signingPath(session.token, '/decline'), body, declineKey(body)).then(() => {
      clearDraft(session.context);
      dialog.close();
      session.done('declined');
    }, (error: unknown) => {
      busy(confirm, null);
      const e = asApiError(error);
      if (e.status === 400) {
        errorBox.replaceChildren(notice('error', e.errors.reason?.[0] ? `The reason ${e.errors.reason[0]}.` : e.message));
        return;
      }
      dialog.close();
      session.fail(e);
    });
  });
  document.body.append(dialog);
  dialog.showModal();
  reason.focus();
}

function doneScreen(context: SigningContext, kind: 'signed' | 'declined', envelopeStatus?: string): void {
  if (kind === 'declined') {
    showScreen('You declined',
      h('div', { class: 'done done-declined', 'data-done': 'declined' },
        h('h1', null, 'You declined to sign'),
        h('p', null, 'We have told the sender. The document has been cancelled, and nobody else will be asked to sign it.'),
        h('p', null, 'You can close this page.'),
      ),
    );
    return;
  }
  const everyone = envelopeStatus === 'completed';
  showScreen('Signed',
    h('div', { class: 'done done-signed', 'data-done': 'signed' },
      h('div', { class: 'done-mark', 'aria-hidden': 'true' }, '✓'),
      h('h1', null, 'Thank you, you have signed'),
      context.subject ? h('p', { class: 'lead' }, h('strong', null, context.subject)) : null,
      h('p', null, everyone
        ? 'Everyone has signed. A sealed copy of the document is being emailed to you now.'
        : 'We will email you a sealed copy of the document once everyone has signed.'),
      h('p', null, 'You can close this page.'),
    ),
  );
}

export function startSigning(token: string): void {
  loadingScreen('Opening your document…');
  let context: SigningContext | null = null;

  const session: Session = {
    token,
    get context() {
      if (!context) throw new Error('no context yet');
      return context;
    },
    fail(error) {
      problemScreen(token, asApiError(error));
    },
    done(kind, envelopeStatus) {
      if (context) doneScreen(context, kind, envelopeStatus);
    },
    decline() {
      declineDialog(session);
    },
  };

  const advance = async (): Promise<void> => {
    try {
      context = await api<SigningContext>('GET', signingPath(token));
    } catch (error) {
      session.fail(error);
      return;
    }
    if (context.requiresOtpVerification && !context.otpVerified) otpScreen(session, () => { void advance(); });
    else if (!context.consentGiven) consentScreen(session, () => { void advance(); });
    else showDocument(session);
  };
  void advance();
}
