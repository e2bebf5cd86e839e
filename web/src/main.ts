/** Entry point: /sign/{token} is the signing page, /download/{token} the download portal. */
import { h, showScreen } from './dom.ts';
import { startDownload } from './download.ts';
import { startEmbedded } from './embed.ts';
import { setLocale, t } from './i18n/i18n.ts';
import { startSigning } from './sign/flow.ts';

/** The page's own words outside the screens (the HTML's English is what shows before the script runs). */
function localiseChrome(): void {
  const skip = document.querySelector('.skip-link');
  if (skip) skip.textContent = t('page.skipLink');
  const name = document.querySelector('.site-name');
  if (name) name.textContent = t('page.siteName');
}

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
  if (kind === 'download' && token && parts.length === 2) {
    void startDownload(decodeURIComponent(token));
    return;
  }
  showScreen(t('notFound.title'),
    h('h1', null, t('notFound.heading')),
    h('p', null, t('notFound.text')),
  );
}

// The browser's languages for now; the signer's own locale from the signing context comes first once the API has one
void setLocale(navigator.languages.length > 0 ? navigator.languages : [navigator.language]).then(() => {
  localiseChrome();
  route();
});
