/** Entry point: /sign/{token} is the signing page, /download/{token} the download portal. */
import { h, showScreen } from './dom.ts';
import { startDownload } from './download.ts';
import { startSigning } from './sign/app.ts';

function route(): void {
  const parts = window.location.pathname.split('/').filter(Boolean);
  const [kind, token] = parts;
  if (kind === 'sign' && token && parts.length === 2) {
    startSigning(decodeURIComponent(token));
    return;
  }
  if (kind === 'download' && token && parts.length === 2) {
    void startDownload(decodeURIComponent(token));
    return;
  }
  showScreen('Page not found',
    h('h1', null, 'This page needs the link from your email'),
    h('p', null, 'To sign or download a document, open the link in the email you received. Make sure you copy the whole link.'),
  );
}

route();
