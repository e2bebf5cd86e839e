/**
 * How many cold functions a page waits for one after another: the API requests a page made, each with the function
 * that answers it and when it started and ended, reduced to the longest chain of first calls (a function's first
 * call in a visit is the cold one) in which each starts after the one before it ended. Warm calls pass a chain on
 * without adding to it. Used by the signing page's browser test and its bench figure (bench/signer-page.ts).
 */
import type { Page, Request } from 'playwright-core';

export interface TimedCall { fn: string; start: number; end: number }

/** The longest chain of cold (first) calls among `calls`, each starting after the previous ended, up to `until`. */
export function coldChain(calls: readonly TimedCall[], until = Infinity): TimedCall[] {
  const seen = new Set<string>();
  const sorted = [...calls].filter((c) => c.start <= until).sort((a, b) => a.start - b.start);
  const chains: TimedCall[][] = [];
  for (const call of sorted) {
    const cold = !seen.has(call.fn);
    seen.add(call.fn);
    const before = chains.filter((_, i) => (sorted[i]?.end ?? Infinity) <= call.start);
    const longest = before.reduce<TimedCall[]>(longer, []);
    chains.push(cold ? [...longest, call] : longest);
  }
  return chains.reduce<TimedCall[]>(longer, []);
}

/** The longer chain; of two as long, the one whose last call ended later (the one the page waited for). */
function longer(best: TimedCall[], chain: TimedCall[]): TimedCall[] {
  if (chain.length !== best.length) return chain.length > best.length ? chain : best;
  return (chain.at(-1)?.end ?? 0) > (best.at(-1)?.end ?? 0) ? chain : best;
}

/** `GET /v1/signing/{token}/document` -> `GET document`: the function a signing request goes to. */
export function signingFunction(request: Request): string | null {
  const path = new URL(request.url()).pathname;
  const match = /^\/v1\/signing\/[^/]+(\/.*)?$/.exec(path);
  if (!match) return null;
  const rest = (match[1] ?? '').replace(/\/[0-9A-Za-z_-]{20,}(?=\/|$)/g, '/{id}');
  return `${request.method()} ${rest === '' ? 'context' : rest.slice(1)}`;
}

/**
 * Records every signing API call the page makes from now on, in epoch ms: from when the page asked (a request held
 * on its way, as the bench holds a cold function's first, counts from the asking) to when its answer was read.
 */
export function recordSigningCalls(page: Page): TimedCall[] {
  const calls: TimedCall[] = [];
  const asked = new Map<Request, number>();
  page.on('request', (request) => { if (signingFunction(request)) asked.set(request, Date.now()); });
  const ended = (request: Request) => {
    const fn = signingFunction(request);
    const start = asked.get(request);
    if (!fn || start === undefined) return;
    asked.delete(request);
    calls.push({ fn, start, end: Date.now() });
  };
  page.on('requestfinished', ended);
  page.on('requestfailed', ended);
  return calls;
}
