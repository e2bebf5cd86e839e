/**
 * What the editor tells the page that frames it: `{ source: "esign", type, envelopeId | templateId }`, posted only to
 * the framing origin when the application allows it (the embedded signing page's rule); never to '*'.
 */
import { eventTargets, parentOrigin } from '../embed.ts';

export type AuthoringEvent = 'authoring.loaded' | 'authoring.saved' | 'authoring.sent' | 'authoring.closed' | 'error';

export interface Opened {
  kind: 'envelope' | 'template';
  id: string;
  mode: 'fields' | 'full';
  locale: string | null;
  returnUrl: string | null;
  embedOrigins: string[];
}

export const framed = () => window.parent !== window;

export function postEvent(opened: Pick<Opened, 'kind' | 'id' | 'embedOrigins'>, type: AuthoringEvent): void {
  if (!framed()) return;
  const message = { source: 'esign', type, ...(opened.kind === 'envelope' ? { envelopeId: opened.id } : { templateId: opened.id }) };
  for (const origin of eventTargets(opened.embedOrigins, parentOrigin())) window.parent.postMessage(message, origin);
}

/** Not framed: back to the integrator's page with `?event=saved|sent`; answers false when there is nowhere to go. */
export function returnTo(opened: Pick<Opened, 'returnUrl'>, event: 'saved' | 'sent'): boolean {
  if (framed() || !opened.returnUrl) return false;
  const url = new URL(opened.returnUrl);
  url.searchParams.set('event', event);
  window.location.assign(url.toString());
  return true;
}
