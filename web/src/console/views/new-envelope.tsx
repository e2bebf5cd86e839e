/** A new envelope: its PDFs, subject and recipients, made as a draft (multipart create); fields and send come next. */
import { useState } from 'preact/hooks';
import { call } from '../console-api.ts';
import { t } from '../console-i18n.ts';
import { Heading, navigate, Problem, useAction } from '../console-kit.tsx';
import { rememberedTenant, rememberTenant, type Envelope } from '../console-model.ts';

interface Recipient { name: string; email: string; order: number }

export function RecipientRows(props: { recipients: Recipient[]; onChange: (r: Recipient[]) => void }) {
  const set = (i: number, patch: Partial<Recipient>) => { props.onChange(props.recipients.map((r, j) => (j === i ? { ...r, ...patch } : r))); };
  return (
    <fieldset class="recipients">
      <legend>{t('new.recipients')}</legend>
      {props.recipients.map((r, i) => (
        <div class="recipient" key={i}>
          <div class="form-row">
            <label for={`r-name-${String(i)}`}>{t('new.name', { n: i + 1 })}</label>
            <input id={`r-name-${String(i)}`} type="text" required autoComplete="off" value={r.name} onInput={(e) => { set(i, { name: e.currentTarget.value }); }} />
          </div>
          <div class="form-row">
            <label for={`r-email-${String(i)}`}>{t('new.email', { n: i + 1 })}</label>
            <input id={`r-email-${String(i)}`} type="email" required autoComplete="off" value={r.email} onInput={(e) => { set(i, { email: e.currentTarget.value }); }} />
          </div>
          <div class="form-row order">
            <label for={`r-order-${String(i)}`}>{t('new.order', { n: i + 1 })}</label>
            <input id={`r-order-${String(i)}`} type="number" min={1} max={99} required value={r.order} onInput={(e) => { set(i, { order: Number(e.currentTarget.value) || 1 }); }} />
          </div>
          {props.recipients.length > 1
            ? <button type="button" class="button-link" onClick={() => { props.onChange(props.recipients.filter((_, j) => j !== i)); }}>{t('new.remove', { n: i + 1 })}</button>
            : null}
        </div>
      ))}
      <button type="button" class="button button-secondary button-small" onClick={() => { props.onChange([...props.recipients, { name: '', email: '', order: 1 }]); }}>{t('new.addRecipient')}</button>
    </fieldset>
  );
}

export function NewEnvelope() {
  const [tenant, setTenant] = useState(rememberedTenant());
  const [subject, setSubject] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const [recipients, setRecipients] = useState<Recipient[]>([{ name: '', email: '', order: 1 }]);
  const action = useAction();
  const submit = (event: Event) => {
    event.preventDefault();
    void action.run(async () => {
      const form = new FormData();
      const data = { tenantId: tenant.trim(), subject: subject.trim() || null, signers: recipients.map((r) => ({ name: r.name.trim(), email: r.email.trim(), routingOrder: r.order })) };
      form.append('data', JSON.stringify(data));
      for (const file of files) form.append('file', file, file.name);
      const created = await call<Envelope>('POST', '/v1/envelopes', { body: form });
      rememberTenant(tenant.trim());
      navigate(`/app/envelopes/${created.id}`);
      return null;
    });
  };
  return (
    <form class="stack" onSubmit={submit}>
      <Heading>{t('new.heading')}</Heading>
      <p class="lead">{t('new.lead')}</p>
      <div class="form-row">
        <label for="n-tenant">{t('envelopes.tenant')}</label>
        <input id="n-tenant" type="text" required value={tenant} onInput={(e) => { setTenant(e.currentTarget.value); }} />
      </div>
      <div class="form-row">
        <label for="n-subject">{t('new.subject')}</label>
        <input id="n-subject" type="text" maxLength={255} value={subject} onInput={(e) => { setSubject(e.currentTarget.value); }} />
      </div>
      <div class="form-row">
        <label for="n-files">{t('new.files')}</label>
        <input id="n-files" type="file" accept="application/pdf,.pdf" multiple required aria-describedby="n-files-hint" onChange={(e) => { setFiles([...(e.currentTarget.files ?? [])]); }} />
        <p class="hint" id="n-files-hint">{t('new.filesHint')}</p>
      </div>
      <RecipientRows recipients={recipients} onChange={setRecipients} />
      <Problem error={action.error} />
      <div class="actions">
        <button type="submit" class="button button-primary" disabled={action.busy}>{t('new.create')}</button>
      </div>
    </form>
  );
}
