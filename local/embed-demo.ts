/**
 * GET /_local/embed-demo?url=<embedded signing URL> (dev only, decision 36): an integrator's page that frames a
 * signer and lists the events the signing page posts to it. Its origin is the local API's (`http://127.0.0.1:3000`):
 * add it to `embedOrigins` (`PUT /v1/console/settings`) or the signing host refuses to be framed here.
 */
import type { HttpResult } from '#shared/http/responses.ts';

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

export function embedDemoPage(url: URL): HttpResult {
  const target = url.searchParams.get('url') ?? '';
  const signingOrigin = target ? (() => { try { return new URL(target).origin; } catch { return ''; } })() : '';
  const frame = signingOrigin
    ? `<iframe id="signer" title="Sign the document" src="${escapeHtml(target)}" style="width:100%;height:70vh;border:1px solid #ccc"></iframe>`
    : '<p>Add <code>?url=</code> with the <code>url</code> from <code>POST /v1/envelopes/{id}/signers/{signerId}/embedded-url</code>.</p>';
  const body = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Embedded signing demo</title></head>
<body style="font-family:sans-serif;max-width:960px;margin:1rem auto">
<h1>Your app</h1>
${frame}
<h2>Events from the signing page</h2>
<ol id="events"></ol>
<script>
  window.addEventListener('message', function (event) {
    if (event.origin !== ${JSON.stringify(signingOrigin)} || !event.data || event.data.source !== 'esign') return;
    var item = document.createElement('li');
    item.textContent = event.data.type + ' (signer ' + event.data.signerId + ')';
    item.dataset.type = event.data.type;
    document.getElementById('events').appendChild(item);
  });
</script>
</body></html>`;
  return { statusCode: 200, headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }, body };
}
