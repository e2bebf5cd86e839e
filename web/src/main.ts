/**
 * Entry point: /sign/{token} is the signing page, /download/{token} the download portal, /verify the verification page,
 * /author/{ticket} the sender's editor (a chunk of its own: the signing page does not carry it).
 */
import { request } from './api.ts';
import { h, showScreen } from './dom.ts';
import { startDownload } from './download.ts';
import { startEmbedded } from './embed.ts';
import { t } from './i18n/i18n.ts';
import { startPage } from './i18n/language.ts';
import { startSigning } from './sign/flow.ts';
import { prefetchSigning } from './sign/prefetch.ts';
import { startVerify } from './verify-page.ts';

// The editor's chunk is fetched at once on its path, while the page's language is settled; its one-time URL is
// opened meanwhile too (the chunk takes the answer)
const editorChunk = window.location.pathname.startsWith('/author/') ? import('./author/author-start.ts') : null;
const editorTicket = editorChunk ? decodeURIComponent(window.location.pathname.split('/')[2] ?? '') : '';
const editorOpening = editorTicket ? request<unknown>('POST', `/v1/authoring/${encodeURIComponent(editorTicket)}/open`) : null;
editorOpening?.catch(() => undefined);

// A signing link's context and document are requested at once, while the page's language is settled
const signing = /^\/sign\/([^/]+)\/?$/.exec(window.location.pathname);
if (signing?.[1]) prefetchSigning(decodeURIComponent(signing[1]));

function route(): void {
  const parts = window.location.pathname.split('/').filter(Boolean);
  const [kind, token] = parts;
  if (kind === 'sign' && token && parts.length === 2) {
    startSigning(decodeURIComponent(token));
    return;
  }
  if (kind === 'embed' && token && parts.length === 2) {
    void startEmbedded(decodeURIComponent(token));
    return;
  }
  if (kind === 'author' && token && parts.length === 2) {
    const ticket = decodeURIComponent(token);
    (editorChunk ?? import('./author/author-start.ts')).then((editor) => editor.startAuthoring(ticket, ticket === editorTicket ? editorOpening : null), () => {
      showScreen(t('notFound.title'), h('h1', null, t('author.openFailed')), h('p', null, t('author.noAnswer')));
    });
    return;
  }
  if (kind === 'verify' && parts.length === 1) {
    startVerify();
    return;
  }
  if (kind === 'download' && token && parts.length === 2) {
    void startDownload(decodeURIComponent(token));
    return;
  }
  showScreen(t('notFound.title'),
    h('h1', null, t('notFound.heading')),
    h('p', null, t('notFound.text')),
  );
}

// The session's chosen language, else the browser's; the signer's own locale from the API takes over once known
void startPage(route);
