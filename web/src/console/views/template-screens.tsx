/** Templates: the tenant's list, a new one from a PDF and roles (fields in the editor), and one template's uses. */
import { useState } from 'preact/hooks';
import { call } from '../console-api.ts';
import { formatTime, t } from '../console-i18n.ts';
import { Heading, Link, Loading, navigate, Problem, useAction, useLoad } from '../console-kit.tsx';
import { rememberedTenant, rememberTenant, type Envelope, type Page, type Template } from '../console-model.ts';
import { BulkSend } from './bulk-send-panel.tsx';
import { openEditor } from './draft-actions.tsx';

function NewTemplate(props: { tenant: string }) {
  const [name, setName] = useState('');
  const [roles, setRoles] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const action = useAction();
  const submit = (event: Event) => {
    event.preventDefault();
    void action.run(async () => {
      const names = roles.split(',').map((r) => r.trim()).filter(Boolean);
      const form = new FormData();
      form.append('data', JSON.stringify({ tenantId: props.tenant, name: name.trim(), roles: names.map((role, i) => ({ role, routingOrder: i + 1 })) }));
      if (file) form.append('file', file, file.name);
      const made = await call<Template>('POST', '/v1/templates', { body: form });
      navigate(`/app/templates/${made.id}`);
      return null;
    });
  };
  return (
    <form class="panel stack" onSubmit={submit} aria-labelledby="new-template-heading">
      <h2 id="new-template-heading">{t('templates.new')}</h2>
      <div class="form-row">
        <label for="t-name">{t('templates.name')}</label>
        <input id="t-name" type="text" required maxLength={200} value={name} onInput={(e) => { setName(e.currentTarget.value); }} />
      </div>
      <div class="form-row">
        <label for="t-roles">{t('templates.roles')}</label>
        <input id="t-roles" type="text" required aria-describedby="t-roles-hint" value={roles} onInput={(e) => { setRoles(e.currentTarget.value); }} />
        <p class="hint" id="t-roles-hint">{t('templates.rolesHint')}</p>
      </div>
      <div class="form-row">
        <label for="t-file">{t('templates.file')}</label>
        <input id="t-file" type="file" accept="application/pdf,.pdf" required onChange={(e) => { setFile(e.currentTarget.files?.[0] ?? null); }} />
      </div>
      <Problem error={action.error} />
      <div class="actions"><button type="submit" class="button button-primary" disabled={action.busy}>{t('templates.create')}</button></div>
    </form>
  );
}

export function TemplateList() {
  const [tenant, setTenant] = useState(rememberedTenant());
  const [shown, setShown] = useState(tenant);
  const list = useLoad(() => call<Page<Template>>('GET', '/v1/templates', { query: { tenantId: shown, pageSize: 100 } }), [shown]);
  const submit = (event: Event) => { event.preventDefault(); rememberTenant(tenant.trim()); setShown(tenant.trim()); };
  return (
    <div class="stack">
      <Heading>{t('templates.heading')}</Heading>
      <form class="filters" onSubmit={submit}>
        <div class="form-row grow">
          <label for="tl-tenant">{t('envelopes.tenant')}</label>
          <input id="tl-tenant" type="text" value={tenant} onInput={(e) => { setTenant(e.currentTarget.value); }} />
        </div>
        <button type="submit" class="button button-secondary">{t('templates.show')}</button>
      </form>
      <Problem error={list.error} />
      {list.loading && !list.data ? <Loading /> : null}
      {list.data ? (list.data.data.length === 0 ? <p class="empty">{t('templates.empty')}</p> : (
        <ul class="cards">
          {list.data.data.map((tpl) => (
            <li key={tpl.id} class="card">
              <Link href={`/app/templates/${tpl.id}`}>{tpl.name}</Link>
              <p class="hint">{t('templates.summary', { roles: tpl.roles.map((r) => r.role).join(', '), fields: tpl.fields.length })} · {formatTime(tpl.createdAt)}</p>
            </li>
          ))}
        </ul>
      )) : null}
      <NewTemplate tenant={shown} />
    </div>
  );
}

function UseTemplate(props: { template: Template }) {
  const [people, setPeople] = useState<Record<string, { name: string; email: string }>>({});
  const action = useAction();
  const submit = (event: Event) => {
    event.preventDefault();
    void action.run(async () => {
      const made = await call<Envelope>('POST', '/v1/envelopes', { json: { templateId: props.template.id, tenantId: props.template.tenantId, recipients: people, send: true } });
      navigate(`/app/envelopes/${made.id}`);
      return null;
    });
  };
  const set = (role: string, patch: Partial<{ name: string; email: string }>) => { setPeople({ ...people, [role]: { name: '', email: '', ...people[role], ...patch } }); };
  return (
    <form class="panel stack" onSubmit={submit} aria-labelledby="use-heading">
      <h2 id="use-heading">{t('template.use')}</h2>
      {props.template.roles.map((r, i) => (
        <fieldset key={r.role} class="recipient">
          <legend>{r.role}</legend>
          <div class="form-row">
            <label for={`u-name-${String(i)}`}>{t('template.personName', { role: r.role })}</label>
            <input id={`u-name-${String(i)}`} type="text" required value={people[r.role]?.name ?? ''} onInput={(e) => { set(r.role, { name: e.currentTarget.value }); }} />
          </div>
          <div class="form-row">
            <label for={`u-email-${String(i)}`}>{t('template.personEmail', { role: r.role })}</label>
            <input id={`u-email-${String(i)}`} type="email" required value={people[r.role]?.email ?? ''} onInput={(e) => { set(r.role, { email: e.currentTarget.value }); }} />
          </div>
        </fieldset>
      ))}
      <Problem error={action.error} />
      <div class="actions"><button type="submit" class="button button-primary" disabled={action.busy}>{t('template.sendNow')}</button></div>
    </form>
  );
}

export function TemplateDetail(props: { id: string }) {
  const loaded = useLoad(() => call<Template>('GET', `/v1/templates/${encodeURIComponent(props.id)}`), [props.id]);
  const editor = useAction();
  const template = loaded.data;
  if (!template) return loaded.error ? <Problem error={loaded.error} /> : <Loading />;
  const edit = () => {
    void editor.run(async () => {
      if (!await openEditor(`/v1/templates/${template.id}/authoring-url`, `/app/templates/${template.id}`)) return t('draft.noEditor');
      return null;
    });
  };
  return (
    <div class="stack">
      <p><Link href="/app/templates">{t('template.back')}</Link></p>
      <Heading eyebrow={t('template.eyebrow')}>{template.name}</Heading>
      <p>{t('templates.summary', { roles: template.roles.map((r) => r.role).join(', '), fields: template.fields.length })}</p>
      {editor.done ? <div class="notice notice-info"><p>{editor.done}</p></div> : null}
      <Problem error={editor.error} />
      <div class="actions"><button type="button" class="button button-secondary" disabled={editor.busy} onClick={edit}>{t('template.edit')}</button></div>
      <UseTemplate template={template} />
      <BulkSend template={template} />
    </div>
  );
}
