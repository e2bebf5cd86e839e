/** The download portal page: /download/{token}. */
import { api, asApiError, downloadPath, type ApiError } from './api.ts';
import type { DownloadStatus } from './api-types.ts';
import { h, loadingScreen, notice, showScreen } from './dom.ts';
import type { MessageKey } from './i18n/catalogue.ts';
import { formatBytes, formatDate, formatNumber, t } from './i18n/i18n.ts';
import { adoptLocale } from './i18n/language.ts';
import { applyBranding } from './branding.ts';
import { downloadProblem, type DownloadProblem } from './problems.ts';

function available(token: string, status: DownloadStatus): void {
  const facts: [string, string][] = [];
  if (status.completedAt) facts.push([t('download.completed'), formatDate(status.completedAt)]);
  if (status.pageCount && status.documents.length <= 1) facts.push([t('download.pages'), formatNumber(status.pageCount)]);
  if (status.sizeBytes && status.documents.length <= 1) facts.push([t('download.size'), formatBytes(status.sizeBytes)]);
  if (status.retentionUntil) facts.push([t('download.availableUntil'), formatDate(status.retentionUntil)]);
  const started = h('div', { class: 'download-started' });
  const onclick = () => { started.replaceChildren(notice('success', t('download.started'))); };
  const documents = status.documents;
  // One sealed document per original (decision 9): each its own link, under its name
  const link = documents.length > 1
    ? [h('p', null, t('download.documentsIntro', { count: documents.length })),
      h('ul', { class: 'download-list' }, documents.map((d) => h('li', null,
        h('a', {
          class: 'button button-primary button-block', href: downloadPath(token, `/document?documentId=${encodeURIComponent(d.documentId)}`),
          download: '', 'data-document-id': d.documentId, onclick,
        }, t('download.documentButton', { name: d.name })),
        h('p', { class: 'hint' }, t('download.documentFacts', { pages: d.pageCount, size: formatBytes(d.sizeBytes) })))))]
    : h('a', { class: 'button button-primary button-block', href: downloadPath(token, '/document'), download: '', onclick }, t('download.button'));
  showScreen(t('download.title'),
    h('p', { class: 'eyebrow' }, t('download.eyebrow')),
    h('h1', null, status.subject ?? t('download.defaultSubject')),
    h('p', null, t('download.intro')),
    facts.length > 0 ? h('dl', { class: 'facts' }, facts.map(([k, v]) => [h('dt', null, k), h('dd', null, v)])) : null,
    link,
    started,
    h('details', { class: 'fingerprint' }, h('summary', null, t('download.fingerprint')),
      h('p', null, t('download.fingerprintHint')),
      documents.length > 1
        ? h('dl', { class: 'facts' }, documents.map((d) => [h('dt', null, d.name), h('dd', null, h('code', null, d.sha256))]))
        : h('code', null, status.sha256)),
  );
}

const PROBLEM_TEXT: Record<DownloadProblem, Record<'title' | 'heading' | 'text', MessageKey>> = {
  purged: { title: 'download.purged.title', heading: 'download.purged.heading', text: 'download.purged.text' },
  expired: { title: 'download.expired.title', heading: 'download.expired.heading', text: 'download.expired.text' },
  invalid: { title: 'download.invalid.title', heading: 'download.invalid.heading', text: 'download.invalid.text' },
  network: { title: 'download.failed.title', heading: 'download.failed.heading', text: 'error.network' },
  unavailable: { title: 'download.failed.title', heading: 'download.failed.heading', text: 'error.unavailable' },
};

function problem(error: ApiError, token: string): void {
  const kind = downloadProblem(error);
  const text = PROBLEM_TEXT[kind];
  const retry = kind === 'network' || kind === 'unavailable';
  showScreen(t(text.title),
    h('div', { class: 'problem', 'data-problem': kind },
      h('h1', null, t(text.heading)),
      h('p', null, t(text.text)),
      error.status === 0 ? null : h('p', { class: 'detail' }, h('span', { class: 'visually-hidden' }, t('problem.detailsLabel')), error.message),
      retry ? h('button', { type: 'button', class: 'button button-primary', onclick: () => { void startDownload(token); } }, t('action.tryAgain')) : null,
    ),
  );
}

export async function startDownload(token: string): Promise<void> {
  loadingScreen(t('loading.title'), t('loading.download'));
  try {
    const status = await api<DownloadStatus>('GET', downloadPath(token));
    applyBranding(status.branding);
    await adoptLocale(status.locale);
    if (!status.available) {
      showScreen(t('download.notYet.title'), h('h1', null, t('download.notYet.heading')), h('p', null, t('download.notYet.text')));
      return;
    }
    available(token, status);
  } catch (error) {
    problem(asApiError(error), token);
  }
}
