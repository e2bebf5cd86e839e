/**
 * The signing page's first requests, started together as soon as the link's token is known (main.ts, before the
 * page's language is settled): the signing context and the first document. On a first visit each is answered by a
 * function of its own, likely cold; side by side the signer waits for the slower, not for both one after the other
 * (decision 51; docs/performance.md, "The signer's first page"). Each answer is used once; a later read asks the API again.
 */
import { api, fetchBytes, signingPath } from '../api.ts';
import type { SigningContext } from '../api-types.ts';

interface Held {
  token: string;
  context: Promise<SigningContext> | null;
  /** The first document's bytes, or null once the request failed (a link at its code step answers 401). */
  document: Promise<ArrayBuffer | null> | null;
}

let held: Held | null = null;

const documentPath = (token: string) => signingPath(token, '/document');

function startDocument(token: string): Promise<ArrayBuffer | null> {
  return fetchBytes(documentPath(token)).catch(() => null);
}

/** Starts the context and the first document for `token` (once; a second call for the same token does nothing). */
export function prefetchSigning(token: string): void {
  if (held?.token === token) return;
  const context = api<SigningContext>('GET', signingPath(token));
  // Read where it is used (takeContext); a rejection nobody took yet is not an error of the page
  context.catch(() => null);
  held = { token, context, document: startDocument(token) };
}

/** The context: the one already on its way for this token, else a new read. */
export function takeContext(token: string): Promise<SigningContext> {
  const waiting = held?.token === token ? held.context : null;
  if (held && waiting) held.context = null;
  return waiting ?? api<SigningContext>('GET', signingPath(token));
}

/**
 * Once the gates before the document are open (the code verified): fetches the first document again unless bytes
 * for it are already held or on their way, so it arrives while the signer reads the consent.
 */
export function prefetchDocument(token: string): void {
  if (held?.token !== token) {
    held = { token, context: null, document: startDocument(token) };
    return;
  }
  const current = held;
  current.document = (current.document ?? Promise.resolve(null)).then((bytes) => bytes ?? startDocument(token));
}

/** The first document's bytes (`url` names it): those held for the token, else a new request. */
export async function takeDocument(token: string, url: string): Promise<ArrayBuffer> {
  const waiting = held?.token === token ? held.document : null;
  if (held && waiting) held.document = null;
  return (await waiting) ?? fetchBytes(url);
}
