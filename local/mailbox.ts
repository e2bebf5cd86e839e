/**
 * `GET /_local/mailbox`: the local outbox (every email and SMS the service sent) as a page, newest first. Links in
 * the text are clickable; an HTML body is shown in a sandboxed frame (no scripts, links open in a new tab). The same
 * messages as JSON: `GET /_local/outbox`. Local only, never deployed.
 */
import type { HttpResult } from '#shared/http/responses.ts';
import type { OutboxMessage } from './outbox-message.ts';

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** Escaped text with its http(s) URLs as links. */
export function linkify(text: string): string {
  return text.split(/(https?:\/\/[^\s<>"']+)/g)
    .map((part, i) => (i % 2 === 1 ? `<a href="${escape(part)}" target="_blank" rel="noopener">${escape(part)}</a>` : escape(part)))
    .join('');
}

const STYLE = `body{font:15px/1.45 system-ui,sans-serif;margin:0;background:#f4f5f7;color:#1d2330}
header{background:#1d2330;color:#fff;padding:12px 20px}header a{color:#9cc4ff}
main{max-width:980px;margin:0 auto;padding:16px}article{background:#fff;border-radius:8px;padding:14px 18px;margin:0 0 14px;box-shadow:0 1px 2px #0002}
.meta{color:#5b6475;font-size:13px}.tag{display:inline-block;border-radius:4px;padding:0 6px;font-size:12px;color:#fff;background:#3867d6}
.sms .tag{background:#20bf6b}h2{font-size:17px;margin:6px 0}pre{white-space:pre-wrap;font:inherit;margin:8px 0}
a,pre,.meta,h2,header{overflow-wrap:anywhere}
iframe{width:100%;height:420px;border:1px solid #dde;border-radius:6px;background:#fff}details{margin-top:6px}`;

/** "From Acme Corp via ... <address> · Reply-To ... · " (an SMS has no sender). */
function from(message: OutboxMessage): string {
  if (!message.from) return '';
  const who = message.from.name ? `${escape(message.from.name)} &lt;${escape(message.from.address)}&gt;` : escape(message.from.address);
  const reply = message.replyTo.length > 0 ? ` · Reply-To ${message.replyTo.map(escape).join(', ')}` : '';
  return `From ${who}${reply} · `;
}

function article(message: OutboxMessage): string {
  const title = message.channel === 'sms' ? 'Text message' : (message.subject ?? '(no subject)');
  const html = message.html === null ? '' : `<details open><summary>HTML</summary><iframe sandbox="allow-popups allow-popups-to-escape-sandbox" title="${escape(title)}" srcdoc="${escape(`<base target="_blank">${message.html}`)}"></iframe></details>`;
  const attachments = message.attachments.length === 0 ? ''
    : `<p class="meta">Attachments: ${message.attachments.map((a) => `${escape(a.filename)} (${escape(a.contentType)}, ${String(Math.round(a.size / 1024))} KB)`).join(', ')}</p>`;
  const urls = [...new Set(message.text.match(/https?:\/\/[^\s<>"']+/g) ?? [])];
  const links = urls.length === 0 ? '' : `<p class="links">Links: ${urls.map(linkify).join(' · ')}</p>`;
  return `<article class="${message.channel}"><span class="tag">${message.channel.toUpperCase()}</span>
<h2>${escape(title)}</h2><p class="meta">${from(message)}To ${escape(message.to)} · ${escape(message.sentAt)}</p>${links}
${message.html === null ? `<pre>${linkify(message.text)}</pre>` : `<details><summary>Text</summary><pre>${linkify(message.text)}</pre></details>${html}`}
${attachments}</article>`;
}

export function mailboxPage(messages: readonly OutboxMessage[], to: string | null): HttpResult {
  const newestFirst = [...messages].sort((a, b) => b.sentAt.localeCompare(a.sentAt));
  const filter = to ? ` to ${escape(to)} · <a href="/_local/mailbox">all</a>` : '';
  const body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Local mailbox</title><style>${STYLE}</style></head><body>
<header><strong>Local mailbox</strong> · ${String(newestFirst.length)} message(s)${filter} · <a href="">refresh</a> · <a href="/_local/outbox">JSON</a> · <a href="/docs/">API reference</a></header>
<main>${newestFirst.length === 0 ? '<p>Nothing sent yet. Send an envelope (or run <code>npm run demo</code>) and refresh.</p>' : newestFirst.map(article).join('\n')}</main>
</body></html>`;
  return {
    statusCode: 200,
    headers: {
      'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff',
      // The page runs no script; the frames show the HTML bodies without theirs.
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; img-src data: http: https:; frame-src 'self'",
    },
    body,
  };
}
