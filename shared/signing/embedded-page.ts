import { embeddedPageCsp } from '../http/signing-host-policy.ts';
import type { HttpResult } from '../http/responses.ts';

/** The app's HTML page, as the signing host serves it (asset names carry content hashes), kept a minute per container. */
const shells = new Map<string, { html: string; until: number }>();
const SHELL_TTL_MS = 60_000;

async function pageShell(signingUrl: string, page: string): Promise<string> {
  const now = Date.now();
  const shell = shells.get(page);
  if (shell && shell.until > now) return shell.html;
  const response = await fetch(`${signingUrl}/${page}`, { redirect: 'error', signal: AbortSignal.timeout(5000) });
  if (!response.ok) throw new Error(`the signing host answered ${String(response.status)} for ${page}`);
  const html = await response.text();
  shells.set(page, { html, until: now + SHELL_TTL_MS });
  return html;
}

/** The embedded signing page: the same app, framed only by `origins` (no X-Frame-Options, which cannot name them). */
/** `page`: index.html, or author.html for the editor (the same app, announcing the editor's scripts). */
export async function embeddedPage(signingUrl: string, origins: readonly string[], documentsOrigin: string, page = 'index.html'): Promise<HttpResult> {
  return {
    statusCode: 200,
    headers: {
      'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'content-security-policy': embeddedPageCsp(origins, documentsOrigin),
      'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer',
    },
    body: await pageShell(signingUrl, page),
  };
}
