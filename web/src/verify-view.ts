/** The verification report as a page: the verdict in plain words, one card per signature, technical details folded. */
import type { ServiceRecord, SignatureReport, VerificationReport } from '../../shared/verify/verify-report.ts';
import { h, notice, showScreen, type Child } from './dom.ts';
import type { MessageKey } from './i18n/catalogue.ts';
import { formatDate, t } from './i18n/i18n.ts';

export type Report = VerificationReport;
export type ServiceAnswer = ServiceRecord;

const VERDICT: Record<Report['indication'], { key: MessageKey; kind: 'success' | 'error' | 'info' }> = {
  TOTAL_PASSED: { key: 'verify.passed', kind: 'success' },
  TOTAL_FAILED: { key: 'verify.failed', kind: 'error' },
  INDETERMINATE: { key: 'verify.indeterminate', kind: 'info' },
};

/** Why a signature did not pass, in plain words, for the outcomes a person meets most (the rest: the technical details). */
const WHY: Partial<Record<NonNullable<SignatureReport['subIndication']>, MessageKey>> = {
  TRY_LATER: 'verify.why.TRY_LATER', OUT_OF_BOUNDS_NO_POE: 'verify.why.OUT_OF_BOUNDS_NO_POE', NO_CERTIFICATE_CHAIN_FOUND: 'verify.why.NO_CERTIFICATE_CHAIN_FOUND',
};

const KIND: Record<SignatureReport['kind'], MessageKey> = {
  seal: 'verify.kind.seal', signature: 'verify.kind.signature', 'document-timestamp': 'verify.kind.timestamp',
};

const TRUST: Record<SignatureReport['trust'], MessageKey> = {
  service: 'verify.trust.service', configured: 'verify.trust.configured', untrusted: 'verify.trust.untrusted',
};

const dateTime = (iso: string | null): string => (iso ? `${formatDate(iso)} ${new Date(iso).toISOString().slice(11, 19)} UTC` : '–');

/** What the service recorded: when it sealed, the level, the audit chain head. */
export function serviceFacts(service: ServiceAnswer): HTMLElement {
  return h('dl', { class: 'facts verify-facts', 'data-service-record': 'true' },
    h('dt', null, t('verify.service.sealedAt')), h('dd', null, dateTime(service.completedAt)),
    h('dt', null, t('verify.fact.level')), h('dd', null, service.padesLevel ?? '–'),
    h('dt', null, t('verify.service.counts')), h('dd', null, t('verify.service.countsValue', { documents: service.documentCount, signers: service.signerCount })),
    h('dt', null, t('verify.service.chainHead')), h('dd', null, h('code', { class: 'hash' }, `#${String(service.auditChainHeadEvent)} ${service.auditChainHead}`)),
  );
}

function changes(s: SignatureReport): string {
  const other = s.modifiedAfter.filter((m) => !m.acceptable).length;
  if (other > 0) return t('verify.changes.other', { count: other });
  return s.modifiedAfter.length > 0 ? t('verify.changes.acceptable') : t('verify.changes.none');
}

function signatureCard(s: SignatureReport): HTMLElement {
  const verdict = VERDICT[s.indication];
  const facts: [MessageKey, Child][] = [
    ['verify.fact.integrity', t(s.intact ? 'verify.intact.yes' : 'verify.intact.no')],
    ['verify.fact.signer', s.signerCommonName ?? s.signer ?? '–'],
    ['verify.fact.trust', t(TRUST[s.trust])],
    ['verify.fact.changes', changes(s)],
  ];
  if (s.kind !== 'document-timestamp') facts.push(['verify.fact.claimed', dateTime(s.claimedTime)]);
  if (s.timestampTime) facts.push(['verify.fact.timestamp', `${dateTime(s.timestampTime)} (${commonNameOf(s.tsa) ?? '–'})`]);
  if (s.padesLevel) facts.push(['verify.fact.level', s.padesLevel]);
  const why = s.subIndication ? WHY[s.subIndication] : undefined;
  return h('section', { class: 'verify-signature', 'data-indication': s.indication, 'aria-labelledby': `sig-${String(s.index)}` },
    h('h2', { id: `sig-${String(s.index)}` }, t(KIND[s.kind], { index: s.index })),
    notice(verdict.kind, t(verdict.key), s.subIndication ? ` (${s.subIndication})` : ''),
    why ? h('p', { class: 'verify-why' }, t(why)) : null,
    h('dl', { class: 'facts verify-facts' }, facts.map(([key, value]) => [h('dt', null, t(key)), h('dd', null, value)])),
    h('details', { class: 'verify-technical' }, h('summary', null, t('verify.technical')), technical(s)),
  );
}

function technical(s: SignatureReport): Child[] {
  const rows: [string, Child][] = [
    ['Indication', `${s.indication}${s.subIndication ? ` / ${s.subIndication}` : ''}`],
    ['Reasons', s.reasons.join(' ') || '–'],
    ['Signer', s.signer ?? '–'], ['Issuer', s.issuer ?? '–'],
    ['Root SHA-256', h('code', { class: 'hash' }, s.rootSha256 ?? '–')],
    ['SubFilter', s.subFilter], ['ByteRange', `[${s.byteRange.join(' ')}]`], ['Covers the whole file', s.coversWholeFile ? 'yes' : 'no'],
    ['Algorithms', [s.digestAlgorithm, s.signatureAlgorithm, s.keyAlgorithm && `${s.keyAlgorithm} ${String(s.keySize ?? '')}`].filter(Boolean).join(', ') || '–'],
    ['Validation time', s.validationTime],
  ];
  return [
    h('dl', { class: 'facts verify-facts' }, rows.map(([k, v]) => [h('dt', null, k), h('dd', null, v)])),
    h('h3', null, 'Chain'),
    h('ol', null, s.chain.map((c) => h('li', null, c.subject, h('br'), h('code', { class: 'hash' }, c.sha256), ` ${c.notBefore.slice(0, 10)} – ${c.notAfter.slice(0, 10)}, ${c.keyAlgorithm} ${String(c.keySize ?? '')}`))),
    h('h3', null, 'Revocation data embedded'),
    s.revocationEmbedded.length > 0
      ? h('ul', null, s.revocationEmbedded.map((f) => h('li', null, `${f.certificate}: ${f.status} (${f.source}, ${f.issuedAt})`)))
      : h('p', null, '–'),
    h('h3', null, 'Changes after signing'),
    s.modifiedAfter.length > 0
      ? h('ul', null, s.modifiedAfter.map((m) => h('li', null, `${m.description} (${m.object})${m.acceptable ? '' : ' ✗'}`)))
      : h('p', null, '–'),
    s.warnings.length > 0 ? h('ul', { class: 'warnings' }, s.warnings.map((w) => h('li', null, w))) : null,
  ];
}

/** The CN of a distinguished name as the report writes it ("C=DE, O=…, CN=…"): the name a person reads; the whole name is in the details. */
const commonNameOf = (name: string | null): string | null => /(?:^|, )CN=(.*?)(?:, [A-Za-z]+=|$)/.exec(name ?? '')?.[1] ?? name;

function exportButton(report: Report): HTMLElement {
  return h('button', {
    type: 'button', class: 'button button-secondary', 'data-export': 'json',
    onclick: () => {
      const url = URL.createObjectURL(new Blob([JSON.stringify(report, null, 2)], { type: 'application/json' }));
      const link = h('a', { href: url, download: `verification-${report.sha256.slice(0, 12)}.json` });
      document.body.append(link);
      link.click();
      link.remove();
      window.setTimeout(() => { URL.revokeObjectURL(url); }, 1000);
    },
  }, t('verify.export'));
}

export interface RenderOptions {
  fileName: string;
  /** The record for the ids in the address (null: opened without ids, or none known). */
  expected: ServiceAnswer | null;
  /** Opened with ids, and the dropped file is not the file they name. */
  mismatch: boolean;
  again: () => void;
}

export function renderReport(report: Report, options: RenderOptions): void {
  const verdict = VERDICT[report.indication];
  const headline: MessageKey = report.error ? 'verify.notPdf' : report.signatures.length === 0 ? 'verify.noSignature' : verdict.key;
  const service = report.service
    ? [notice('success', t('verify.service.known', { date: dateTime(report.service.completedAt) })), serviceFacts(report.service)]
    : options.mismatch ? notice('error', t('verify.service.mismatch')) : notice('info', t('verify.service.unknown'));
  showScreen(t('verify.title'),
    h('p', { class: 'eyebrow' }, options.fileName),
    h('h1', null, t('verify.resultHeading')),
    h('div', { 'data-verdict': report.indication }, notice(verdict.kind, t(headline))),
    service,
    report.signatures.map(signatureCard),
    h('details', { class: 'fingerprint' }, h('summary', null, t('verify.fingerprint')), h('code', { class: 'hash' }, report.sha256)),
    h('div', { class: 'verify-actions' }, exportButton(report), h('button', { type: 'button', class: 'button button-primary', onclick: options.again }, t('verify.another'))),
  );
}
