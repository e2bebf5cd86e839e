/**
 * The verification page: /verify (and /verify#<envelopeId>.<documentId>, opened from an audit certificate's QR code).
 * A person drops or picks a PDF; it is hashed (SHA-256, WebCrypto) and every signature is validated here, in the
 * browser. The file never leaves it: the page asks only for the service's record of the hash (or of the ids) and for
 * the root certificate the service publishes, which anchors this service's seals.
 */
import { api, asApiError } from './api.ts';
import { h, loadingScreen, notice, showScreen } from './dom.ts';
import { t } from './i18n/i18n.ts';
import { pemCertificates } from '../../shared/verify/verify-report.ts';
import { renderReport, serviceFacts, type ServiceAnswer } from './verify-view.ts';

const ids = (): { envelopeId: string; documentId: string } | null => {
  const match = /^#([\w-]+)\.([\w-]+)$/.exec(window.location.hash);
  return match?.[1] && match[2] ? { envelopeId: match[1], documentId: match[2] } : null;
};

const hexOf = (buffer: ArrayBuffer): string => [...new Uint8Array(buffer)].map((b) => b.toString(16).padStart(2, '0')).join('');

/** The service's record, or null when it has none (404) or cannot be reached (the report still stands without it). */
async function record(path: string): Promise<ServiceAnswer | null> {
  try {
    return await api<ServiceAnswer>('GET', path);
  } catch (error) {
    const failure = asApiError(error);
    if (failure.status !== 404) console.warn('verification record unavailable', failure.message);
    return null;
  }
}

/** SHA-256 fingerprints of the roots the service publishes, asked once per page; none when it cannot be reached. */
let published: Promise<string[]> | null = null;
function publishedRoots(): Promise<string[]> {
  published ??= (async () => {
    try {
      const response = await fetch('/v1/verify/roots.pem');
      if (!response.ok) return [];
      const roots = pemCertificates(await response.text());
      return await Promise.all(roots.map(async (der) => hexOf(await crypto.subtle.digest('SHA-256', new Uint8Array(der)))));
    } catch (error) {
      console.warn('published roots unavailable', error);
      return [];
    }
  })();
  return published;
}

/** The record for the ids in the address, asked once per page and ids. */
let byIds: { key: string; answer: Promise<ServiceAnswer | null> } | null = null;
function recordForIds(expected: { envelopeId: string; documentId: string }): Promise<ServiceAnswer | null> {
  const key = `${expected.envelopeId}.${expected.documentId}`;
  if (byIds?.key !== key) byIds = { key, answer: record(`/v1/verify/${encodeURIComponent(expected.envelopeId)}/${encodeURIComponent(expected.documentId)}`) };
  return byIds.answer;
}

async function check(file: File): Promise<void> {
  loadingScreen(t('verify.title'), t('verify.checking'));
  const bytes = new Uint8Array(await file.arrayBuffer());
  const digest = await crypto.subtle.digest('SHA-256', bytes);
  const sha256 = hexOf(digest);
  const { knowingFileDigest, verifyPdf } = await import('../../shared/verify/verify-document.ts');
  const sha256Ranges = knowingFileDigest(new Uint8Array(digest)); // the file is hashed once here, not again per check
  const expected = ids();
  const [service, serviceRoots] = await Promise.all([expected ? recordForIds(expected) : record(`/v1/verify/${sha256}`), publishedRoots()]);
  const matches = !!service && (service.sha256 === undefined || service.sha256 === sha256);
  // The root the service publishes anchors any file; a file the service says it sealed also chains to the root it was
  // sealed under, which may predate the chain it seals with now.
  const first = await verifyPdf(bytes, { anchors: { service: serviceRoots, configured: [] }, service: matches ? service : null, sha256Ranges });
  const sealedUnder = matches ? first.signatures.flatMap((s) => (s.rootSha256 && !serviceRoots.includes(s.rootSha256) ? [s.rootSha256] : [])) : [];
  const report = sealedUnder.length > 0 ? await verifyPdf(bytes, { anchors: { service: [...serviceRoots, ...sealedUnder], configured: [] }, service, sha256Ranges }) : first;
  renderReport(report, { fileName: file.name, expected: expected ? service : null, mismatch: !!expected && !!service && !matches, again: () => { start(); } });
}

function dropZone(): HTMLElement {
  const input = h('input', { type: 'file', id: 'verify-file', accept: 'application/pdf,.pdf', class: 'visually-hidden' });
  input.addEventListener('change', () => {
    const file = input.files?.[0];
    if (file) void check(file);
  });
  const zone = h('div', { class: 'drop-zone', 'data-drop-zone': 'true' },
    h('p', null, t('verify.drop')),
    h('label', { for: 'verify-file', class: 'button button-primary' }, t('verify.choose')),
    input,
  );
  // The label opens the picker on click; Enter and Space on the focused input do the same natively.
  input.addEventListener('focus', () => { zone.classList.add('drop-zone-focus'); });
  input.addEventListener('blur', () => { zone.classList.remove('drop-zone-focus'); });
  zone.addEventListener('dragover', (event) => {
    event.preventDefault();
    zone.classList.add('drop-zone-over');
  });
  zone.addEventListener('dragleave', () => { zone.classList.remove('drop-zone-over'); });
  zone.addEventListener('drop', (event) => {
    event.preventDefault();
    zone.classList.remove('drop-zone-over');
    const file = event.dataTransfer?.files[0];
    if (file) void check(file);
  });
  return zone;
}

export function start(): void {
  const expected = ids();
  const known = h('div', { class: 'verify-known' });
  showScreen(t('verify.title'),
    h('p', { class: 'eyebrow' }, t('verify.eyebrow')),
    h('h1', null, t('verify.heading')),
    h('p', null, t('verify.intro')),
    expected ? notice('info', t('verify.prefilled')) : null,
    known,
    dropZone(),
    h('p', { class: 'hint' }, t('verify.private')),
  );
  if (expected) {
    void recordForIds(expected).then((answer) => {
      known.replaceChildren(answer ? serviceFacts(answer) : notice('error', t('verify.service.noRecord')));
    });
  }
}

export function startVerify(): void {
  start();
  window.addEventListener('hashchange', () => { start(); });
}
