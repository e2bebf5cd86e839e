/** Hands a signer's place to someone else (POST /v1/envelopes/{id}/signers/{signerId}/reassign): same slot, fields and step. */
import { useEffect, useState } from 'preact/hooks';
import { call } from '../console-api.ts';
import { t } from '../console-i18n.ts';
import { Dialog, TextField } from '../console-kit.tsx';
import type { Signer } from '../console-model.ts';

/** Who may be replaced: someone who has neither signed nor declined, while the envelope is out for signature. */
export const canReassign = (envelopeStatus: string, signer: Signer) =>
  (envelopeStatus === 'sent' || envelopeStatus === 'in_progress') && signer.status !== 'signed' && signer.status !== 'declined';

export function ReassignDialog(props: { envelopeId: string; signer: Signer | null; busy: boolean; onClose: () => void; run: (action: () => Promise<string | null>) => void }) {
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [reason, setReason] = useState('');
  useEffect(() => { setName(''); setEmail(''); setReason(''); }, [props.signer?.id]);
  const signer = props.signer;
  const confirm = () => {
    if (!signer) return;
    props.run(async () => {
      await call('POST', `/v1/envelopes/${props.envelopeId}/signers/${signer.id}/reassign`, { json: { name: name.trim(), email: email.trim(), reason: reason.trim() || null } });
      props.onClose();
      return t('reassign.done', { from: signer.name, to: name.trim() });
    });
  };
  return (
    <Dialog open={signer !== null} title={t('reassign.title', { name: signer?.name ?? '' })} confirm={t('reassign.confirm')} busy={props.busy} onClose={props.onClose} onConfirm={confirm}>
      <p>{t('reassign.text')}</p>
      <TextField id="reassign-name" label={t('reassign.name')} required maxLength={200} value={name} onValue={setName} />
      <TextField id="reassign-email" label={t('reassign.email')} type="email" required maxLength={254} value={email} onValue={setEmail} />
      <div class="form-row">
        <label for="reassign-reason">{t('reassign.reason')}</label>
        <textarea id="reassign-reason" rows={2} maxLength={1000} value={reason} onInput={(e) => { setReason(e.currentTarget.value); }} />
      </div>
    </Dialog>
  );
}
