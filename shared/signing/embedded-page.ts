import { embeddedPageCsp } from '../http/signing-host-policy.ts';
import type { HttpResult } from '../http/responses.ts';

/** The app's one HTML page, as the signing host serves it (asset names carry content hashes), kept a minute per container. */
let shell: { html: string; until: number } | null = null;
const SHELL_TTL_MS = 60_000;

async function pageShell(signingUrl: string): Promise<string> {
  const now = Date.now();
  if (shell && shell.until > now) return shell.html;
  const response = await fetch(`${signingUrl}/index.html`, { redirect: 'error', signal: AbortSignal.timeout(5000) });
  if (!response.ok) throw new Error(`the signing host answered ${String(response.status)} for index.html`);
  shell = { html: await response.text(), until: now + SHELL_TTL_MS };
  return shell.html;
}

/** The embedded signing page: the same app, framed only by `origins` (no X-Frame-Options, which cannot name them). */
export async function embeddedPage(signingUrl: string, origins: readonly string[], documentsOrigin: string): Promise<HttpResult> {
  return {
    statusCode: 200,
    headers: {
      'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'content-security-policy': embeddedPageCsp(origins, documentsOrigin),
      'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer',
    },
    body: await pageShell(signingUrl),
  };
}
