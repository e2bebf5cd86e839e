/**
 * The signing page, /sign/{token}: the steps in the API's order (decision 14), one-time code, then consent, then
 * the document with this signer's fields; a done screen; a screen for every kind of unusable link. This module
 * is the only one that knows the order; each step gets the `Page` and the store.
 */
import { asApiError, type ApiError } from '../api.ts';
import type { SigningContext } from '../api-types.ts';
import { loadingScreen } from '../dom.ts';
import { applyBranding } from '../branding.ts';
import { t } from '../i18n/i18n.ts';
import { adoptLocale } from '../i18n/language.ts';
import { isFinal, openingProblem, signingRoute, type LinkProblem } from '../problems.ts';
import { consentStep } from './consent.ts';
import { declineDialog } from './decline.ts';
import { reassignDialog } from './reassign.ts';
import { clearDraft, ownerOfToken } from './draft.ts';
import { otpStep } from './otp.ts';
import { prefetchDocument, prefetchSigning, takeContext } from './prefetch.ts';
import { doneScreen, problemScreen } from './outcome.ts';
import { createStore, type Page, type Screen } from './state.ts';

/** What an embedding page hears of the visit (web/src/embed.ts, decision 36); the e-mailed link has none. */
export interface SigningEvents {
  finished: (outcome: 'signed' | 'declined') => void;
  problem: (problem: LinkProblem) => void;
}

export function startSigning(token: string, events: SigningEvents | null = null): void {
  // Usually started already by main.ts; an embedded visit learns its token only now
  prefetchSigning(token);
  // The document step's code comes while the context is on its way (pdf.js still waits for the document itself)
  void documentStep().catch(() => null);
  const store = createStore(token);

  const show = (screen: Screen) => {
    store.clearViews();
    store.update((s) => { s.screen = screen; });
    switch (screen.kind) {
      case 'loading': loadingScreen(t('loading.title'), t('loading.document')); break;
      case 'otp': otpStep(page); void documentStep().catch(() => null); break;
      case 'consent': consentStep(page); void documentStep().catch(() => null); break;
      case 'document': showDocumentStep(); break;
      case 'done': doneScreen(screen.outcome, store.state.context?.subject ?? null, screen.envelopeStatus); break;
      case 'problem': problemScreen(screen.problem, screen.detail, retryable(screen.problem) ? reopen : null, screen.downloadUrl ?? null); break;
    }
  };

  const problem = (kind: LinkProblem, error: ApiError) => {
    // The link is finished for good: entries kept for it would only linger
    if (isFinal(kind)) {
      const owner = store.state.context ?? ownerOfToken(token);
      if (owner) clearDraft(owner);
    }
    show({ kind: 'problem', problem: kind, detail: error.status === 0 ? '' : error.message, downloadUrl: error.downloadUrl });
    events?.problem(kind);
  };

  const advance = async (): Promise<void> => {
    let context: SigningContext;
    try {
      context = await takeContext(token);
    } catch (error) {
      const e = asApiError(error);
      problem(openingProblem(e), e);
      return;
    }
    store.update((s) => { s.context = context; });
    applyBranding(context.branding);
    // The page speaks the signer's language (unless they picked another in the switch)
    await adoptLocale(context.locale);
    if (context.requiresOtpVerification && !context.otpVerified) show({ kind: 'otp' });
    else {
      // Past the code, the document can be read: it comes while the signer reads the consent
      if (context.requiresOtpVerification) prefetchDocument(token);
      show({ kind: context.consentGiven ? 'document' : 'consent' });
    }
  };

  const showDocumentStep = () => {
    documentStep().then(({ showDocument }) => {
      if (store.state.screen.kind === 'document') showDocument(page);
    }, () => { show({ kind: 'problem', problem: 'network', detail: '' }); });
  };

  const page: Page = {
    store,
    advance: () => { void advance(); },
    consented() {
      // Nothing else changed with the consent: the document shows without reading the context again
      store.update((s) => { if (s.context) s.context = { ...s.context, consentGiven: true }; });
      show({ kind: 'document' });
    },
    handled(error) {
      const route = signingRoute(error);
      if (route.to === 'inline') return false;
      if (route.to === 'gates') void advance();
      else problem(route.problem, error);
      return true;
    },
    finished(outcome, envelopeStatus) {
      const context = store.state.context;
      if (context) clearDraft(context);
      show({ kind: 'done', outcome, envelopeStatus });
      // An embedding page hears of a signature or a decline; a handover leaves it nothing to do
      if (outcome !== 'reassigned') events?.finished(outcome);
    },
    decline: () => { declineDialog(page); },
    reassign: () => { reassignDialog(page); },
  };

  /** From the start, as when the link is opened. */
  function reopen(): void {
    show({ kind: 'loading' });
    void advance();
  }
  reopen();
}

/**
 * The document step's code is a chunk of its own, like pdf.js: fetched while the signer is at a gate, or at once
 * when the link opens on the document, so the first screen does not wait for it.
 */
let documentModule: Promise<typeof import('./document/screen.ts')> | null = null;
function documentStep(): Promise<typeof import('./document/screen.ts')> {
  documentModule ??= import('./document/screen.ts').catch((error: unknown) => {
    documentModule = null;
    throw error;
  });
  return documentModule;
}

const retryable = (problem: LinkProblem) => problem === 'network' || problem === 'unavailable';
