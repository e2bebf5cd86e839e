/** One envelope: its signers and their progress, the audit trail in sentences, documents, and what can be done now. */
import { useState } from 'preact/hooks';
import { call, download } from '../console-api.ts';
import { formatTime, t } from '../console-i18n.ts';
import { Dialog, Done, Heading, Link, Loading, Problem, Status, useAction, useLoad } from '../console-kit.tsx';
import type { Envelope, Signer } from '../console-model.ts';
import { auditSentence, signerStatusLabel, statusLabel } from '../console-words.ts';
import { DraftActions } from './draft-actions.tsx';
import { canReassign, ReassignDialog } from './reassign-dialog.tsx';

const LIVE = new Set(['sent', 'in_progress']);

function SignerRow(props: { envelope: Envelope; signer: Signer; onResend: (s: Signer) => void; onReassign: (s: Signer) => void; busy: boolean }) {
  const { signer } = props;
  const canResend = LIVE.has(props.envelope.status) && (signer.status === 'sent' || signer.status === 'viewed') && !signer.embedded;
  const when = signer.signedAt ?? signer.declinedAt;
  return (
    <li class="signer">
      <div>
        <strong>{signer.name}</strong> <span class="muted">{signer.email}</span>
        <p class="hint">{t('detail.order', { order: signer.routingOrder })}{when ? ` · ${formatTime(when)}` : ''}</p>
      </div>
      <Status status={`signer-${signer.status}`} label={signerStatusLabel(signer.status)} />
      {canResend ? <button type="button" class="button button-secondary button-small" disabled={props.busy} onClick={() => { props.onResend(signer); }}>{t('detail.resend', { name: signer.name })}</button> : null}
      {canReassign(props.envelope.status, signer) ? <button type="button" class="button button-secondary button-small" disabled={props.busy} onClick={() => { props.onReassign(signer); }}>{t('detail.reassign', { name: signer.name })}</button> : null}
    </li>
  );
}

export function EnvelopeDetail(props: { id: string }) {
  const loaded = useLoad(() => call<Envelope>('GET', `/v1/envelopes/${encodeURIComponent(props.id)}`), [props.id]);
  const action = useAction();
  const [voiding, setVoiding] = useState(false);
  const [reassigning, setReassigning] = useState<Signer | null>(null);
  const [reason, setReason] = useState('');
  const [notice, setNotice] = useState<string | null>(null);
  const envelope = loaded.data;
  if (!envelope) return loaded.error ? <Problem error={loaded.error} /> : <Loading />;
  const base = `/v1/envelopes/${envelope.id}`;
  const act = (run: () => Promise<string | null>) => { void action.run(run).then((ok) => { if (ok) loaded.reload(); }); };
  const voidIt = () => {
    act(async () => {
      await call('POST', `${base}/void`, { json: { reason: reason.trim() || null } });
      setVoiding(false);
      return t('detail.voided');
    });
  };
  const remind = () => { act(async () => { await call('POST', `${base}/remind`); return t('detail.reminded'); }); };
  const resend = (s: Signer) => { act(async () => { await call('POST', `${base}/signers/${s.id}/resend`); return t('detail.resent', { name: s.name }); }); };
  const originals = envelope.documents.filter((d) => d.kind === 'original');
  const sealed = envelope.documents.filter((d) => d.kind === 'sealed');
  return (
    <div class="stack">
      <p><Link href={`/app/envelopes?tenant=${encodeURIComponent(envelope.tenantId)}`}>{t('detail.back')}</Link></p>
      <div class="title-row">
        <Heading eyebrow={t('detail.eyebrow')}>{envelope.subject ?? t('envelopes.noSubject')}</Heading>
        <Status status={envelope.status} label={statusLabel(envelope.status)} />
      </div>
      <dl class="facts">
        <dt>{t('envelopes.tenant')}</dt><dd>{envelope.tenantId}</dd>
        <dt>{t('envelopes.created')}</dt><dd>{formatTime(envelope.createdAt)}</dd>
        {envelope.sentAt ? <><dt>{t('detail.sent')}</dt><dd>{formatTime(envelope.sentAt)}</dd></> : null}
        {LIVE.has(envelope.status) ? <><dt>{t('detail.expires')}</dt><dd>{formatTime(envelope.expiresAt)}</dd></> : null}
        {envelope.completedAt ? <><dt>{t('detail.completed')}</dt><dd>{formatTime(envelope.completedAt)}</dd></> : null}
        {envelope.voidedAt ? <><dt>{t('detail.voidedAt')}</dt><dd>{formatTime(envelope.voidedAt)}</dd></> : null}
      </dl>
      <Problem error={action.error} />
      <Done message={action.done ?? notice} />
      {envelope.status === 'draft' ? <DraftActions envelope={envelope} onChanged={(message) => { setNotice(message); loaded.reload(); }} /> : null}
      {LIVE.has(envelope.status) ? (
        <div class="actions">
          <button type="button" class="button button-secondary" disabled={action.busy} onClick={remind}>{t('detail.remind')}</button>
          <button type="button" class="button button-danger" disabled={action.busy} onClick={() => { setVoiding(true); }}>{t('detail.void')}</button>
        </div>
      ) : null}
      <section aria-labelledby="signers-heading" class="panel">
        <h2 id="signers-heading">{t('detail.signers')}</h2>
        <ul class="signers">{envelope.signers.map((s) => <SignerRow key={s.id} envelope={envelope} signer={s} onResend={resend} onReassign={setReassigning} busy={action.busy} />)}</ul>
      </section>
      <section aria-labelledby="documents-heading" class="panel">
        <h2 id="documents-heading">{t('detail.documents')}</h2>
        <ul class="documents">
          {originals.map((d) => {
            const seal = sealed.find((s) => s.sourceDocumentId === d.id);
            return (
              <li key={d.id}>
                <span>{d.name} <span class="muted">{t('detail.pages', { pages: d.pageCount })}</span></span>
                <span class="actions">
                  <button type="button" class="button-link" onClick={() => { void download(`${base}/document?documentId=${d.id}`, d.name); }}>{t('detail.downloadOriginal', { name: d.name })}</button>
                  {seal ? <button type="button" class="button-link" onClick={() => { void download(`${base}/document?documentId=${seal.id}`, seal.name); }}>{t('detail.downloadSealed', { name: seal.name })}</button> : null}
                </span>
              </li>
            );
          })}
        </ul>
      </section>
      <section aria-labelledby="timeline-heading" class="panel">
        <h2 id="timeline-heading">{t('detail.timeline')}</h2>
        <ol class="timeline">
          {(envelope.auditLog ?? []).map((e) => (
            <li key={e.id}><time dateTime={e.timestamp}>{formatTime(e.timestamp)}</time> <span>{auditSentence(e, envelope)}</span></li>
          ))}
        </ol>
      </section>
      <ReassignDialog envelopeId={envelope.id} signer={reassigning} busy={action.busy} onClose={() => { setReassigning(null); }} run={act} />
      <Dialog open={voiding} title={t('void.title')} confirm={t('void.confirm')} danger busy={action.busy} onClose={() => { setVoiding(false); }} onConfirm={voidIt}>
        <p>{t('void.text')}</p>
        <div class="form-row">
          <label for="void-reason">{t('void.reason')}</label>
          <textarea id="void-reason" rows={3} maxLength={1000} value={reason} onInput={(e) => { setReason(e.currentTarget.value); }} />
        </div>
      </Dialog>
    </div>
  );
}
