/** The download portal page: /download/{token} (spec 4.4). */
import { api, ApiError, downloadPath, type DownloadStatus } from './api.ts';
import { formatBytes, formatDate, h, notice, showScreen } from './dom.ts';

function loading(): void {
  showScreen('Loading', h('h1', { class: 'visually-hidden' }, 'Loading your document'), h('p', { class: 'loading', role: 'status' }, h('span', { class: 'spinner', 'aria-hidden': 'true' }), ' Checking your download link…'));
}

function available(token: string, status: DownloadStatus): void {
  const subject = status.subject ?? 'Signed document';
  const facts: [string, string][] = [];
  if (status.completedAt) facts.push(['Completed', formatDate(status.completedAt)]);
  if (status.pageCount) facts.push(['Pages', String(status.pageCount)]);
  if (status.sizeBytes) facts.push(['Size', formatBytes(status.sizeBytes)]);
  if (status.retentionUntil) facts.push(['Available until', formatDate(status.retentionUntil)]);
  const started = h('div', { class: 'download-started' });
  const link = h('a', {
    class: 'button button-primary button-block', href: downloadPath(token, '/document'), download: '',
    onclick: () => {
      started.replaceChildren(notice('success', 'Your download has started. If nothing happens, check your browser’s downloads.'));
    },
  }, 'Download the signed PDF');
  showScreen('Download your signed document',
    h('p', { class: 'eyebrow' }, 'Signed and sealed'),
    h('h1', null, subject),
    h('p', null, 'Everyone has signed. The PDF carries a digital seal and an audit certificate that shows who signed and when.'),
    facts.length > 0 ? h('dl', { class: 'facts' }, facts.map(([k, v]) => [h('dt', null, k), h('dd', null, v)])) : null,
    link,
    started,
    status.sha256
      ? h('details', { class: 'fingerprint' }, h('summary', null, 'Document fingerprint (SHA-256)'),
        h('p', null, 'Compare it with the fingerprint in your completion email to be sure the file is the one that was signed.'),
        h('code', null, status.sha256))
      : null,
  );
}

function problem(error: ApiError, token: string): void {
  if (error.status === 410) {
    showScreen('Document deleted',
      h('h1', null, 'This document has been deleted'),
      h('p', null, 'Signed documents are kept only for a limited time, and this one has reached the end of that period. Ask the sender if you need a copy.'),
      h('p', { class: 'detail' }, error.message),
    );
    return;
  }
  if (error.status === 401) {
    const expired = error.message.toLowerCase().includes('expired');
    showScreen(expired ? 'Link expired' : 'Link not valid',
      h('h1', null, expired ? 'This download link has expired' : 'This download link doesn’t work'),
      h('p', null, expired
        ? 'Download links stop working when the document’s storage period ends. Ask the sender for a copy.'
        : 'Check that you opened the whole link from your email. If it still doesn’t work, ask the sender for a new one.'),
      h('p', { class: 'detail' }, error.message),
    );
    return;
  }
  const retry = h('button', { type: 'button', class: 'button button-primary', onclick: () => { void startDownload(token); } }, 'Try again');
  showScreen('Something went wrong',
    h('h1', null, 'We couldn’t check your download link'),
    h('p', null, error.status === 0 ? 'The service could not be reached. Check your connection.' : 'Something went wrong on our side.'),
    h('p', { class: 'detail' }, error.message),
    retry,
  );
}

export async function startDownload(token: string): Promise<void> {
  loading();
  try {
    const status = await api<DownloadStatus>('GET', downloadPath(token));
    if (!status.available) {
      showScreen('Not available yet', h('h1', null, 'The signed document is not available yet'), h('p', null, 'Please try again later.'));
      return;
    }
    available(token, status);
  } catch (error) {
    problem(error instanceof ApiError ? error : new ApiError(0, 'network', String(error)), token);
  }
}
