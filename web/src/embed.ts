/**
 * Embedded signing, /embed/{ticket} (decision 36): the page opens its one-time URL, which hands it the signer's
 * link, then runs the usual signing flow. Framed, it posts `{ source: "esign", type, envelopeId, signerId }` to the
 * parent, only to the framing origin and only if the application allows it; not framed, it goes to `returnUrl` with
 * `?event=signed|declined` when the visit ends.
 */
import { api, asApiError } from './api.ts';
import { openingProblem } from './problems.ts';
import { problemScreen } from './sign/outcome.ts';
import { startSigning } from './sign/flow.ts';

interface EmbeddedSession {
  token: string;
  envelopeId: string;
  signerId: string;
  returnUrl: string | null;
  embedOrigins: string[];
}

type EmbedEvent = 'loaded' | 'signed' | 'declined' | 'error';

const framed = () => window.parent !== window;

/** The framing page's origin, as far as the browser tells (Chromium and WebKit: ancestorOrigins; else the referrer). */
export function parentOrigin(): string | null {
  const ancestors = 'ancestorOrigins' in window.location ? window.location.ancestorOrigins : null;
  if (ancestors && ancestors.length > 0) return ancestors.item(0);
  try {
    return document.referrer ? new URL(document.referrer).origin : null;
  } catch {
    return null;
  }
}

/** Where events may go: the framing origin when it is allowed; when the browser does not say, each allowed origin (only the parent's receives it). */
export function eventTargets(allowed: readonly string[], parent: string | null): string[] {
  if (parent !== null) return allowed.includes(parent) ? [parent] : [];
  return [...allowed];
}

function post(session: Pick<EmbeddedSession, 'envelopeId' | 'signerId' | 'embedOrigins'> | null, type: EmbedEvent): void {
  if (!framed() || !session) return;
  const message = { source: 'esign', type, envelopeId: session.envelopeId, signerId: session.signerId };
  for (const origin of eventTargets(session.embedOrigins, parentOrigin())) window.parent.postMessage(message, origin);
}

function returnTo(session: EmbeddedSession, event: 'signed' | 'declined'): void {
  if (framed() || !session.returnUrl) return;
  const url = new URL(session.returnUrl);
  url.searchParams.set('event', event);
  window.location.assign(url.toString());
}

export async function startEmbedded(ticket: string): Promise<void> {
  let session: EmbeddedSession;
  try {
    session = await api<EmbeddedSession>('POST', `/v1/embedded/${encodeURIComponent(ticket)}/open`);
  } catch (error) {
    const e = asApiError(error);
    problemScreen(openingProblem(e), e.status === 0 ? '' : e.message, null);
    return;
  }
  post(session, 'loaded');
  startSigning(session.token, {
    finished(outcome) {
      post(session, outcome);
      returnTo(session, outcome);
    },
    problem() { post(session, 'error'); },
  });
}
