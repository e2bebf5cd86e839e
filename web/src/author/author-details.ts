/** Full mode: the envelope's subject, message, signers and documents, or the template's name, message and roles. */
import { h, type JSX } from 'preact';
import { useState } from 'preact/hooks';
import { AUTH_METHODS, type AuthMethod } from '#shared/kernel/model.ts';
import { asApiError } from '../api-error.ts';
import { t } from '../i18n/i18n.ts';
import { LOCALES } from '../i18n/locales.ts';
import type { AuthorApi } from './author-api.ts';
import { basePath, originals, type ApiRole, type ApiSigner, type Resource } from './author-resource.ts';

interface Props { api: AuthorApi; resource: Resource; reload: () => Promise<void>; changed: () => void }

const value = (event: Event) => (event.target as HTMLInputElement).value;

function authName(method: AuthMethod): string {
  switch (method) {
    case 'email_otp': return t('author.auth.email');
    case 'sms_otp': return t('author.auth.sms');
    case 'none': return t('author.auth.none');
  }
}

const localeName = (tag: string) => new Intl.DisplayNames([tag], { type: 'language' }).of(tag) ?? tag;

export function DetailsView({ api, resource, reload, changed }: Props): JSX.Element {
  const [error, setError] = useState<string | null>(null);
  const base = basePath(resource.kind, resource.id);
  const run = async (work: () => Promise<unknown>) => {
    setError(null);
    try {
      await work();
    } catch (e) {
      setError(asApiError(e).message);
    }
    changed();
  };
  const envelope = resource.kind === 'envelope';
  const patch = (body: Record<string, unknown>) => run(async () => {
    const next = await api.call<Partial<Resource>>('PATCH', base, body);
    Object.assign(resource, { subject: next.subject ?? resource.subject, message: next.message ?? resource.message, name: next.name ?? resource.name, roles: next.roles ?? resource.roles });
  });
  const roles = resource.roles ?? [];
  // A renamed role names the role it was: its fields stay with it
  const saveRoles = (next: (ApiRole & { renamedFrom?: string })[]) => patch({ roles: next }).then(reload);

  return h('div', { class: 'adetails-form' },
    error ? h('p', { class: 'notice notice-error', role: 'alert' }, error) : null,
    h('section', { class: 'apanel', 'aria-labelledby': 'adetails-message' },
      h('h2', { id: 'adetails-message', class: 'apanel-title' }, t('author.message')),
      envelope ? null : h('label', { class: 'afield-row' }, h('span', null, t('author.templateName')),
        h('input', { type: 'text', required: true, maxLength: 200, value: resource.name ?? '', onChange: (e: Event) => { void patch({ name: value(e) }); } })),
      h('label', { class: 'afield-row' }, h('span', null, t('author.subject')),
        h('input', { type: 'text', maxLength: 255, value: resource.subject ?? '', onChange: (e: Event) => { void patch({ subject: value(e) || null }); } })),
      h('label', { class: 'afield-row' }, h('span', null, t('author.messageText')),
        h('textarea', { rows: 4, maxLength: 5000, value: resource.message ?? '', onChange: (e: Event) => { void patch({ message: value(e) || null }); } }))),
    envelope ? h(Signers, { api, resource, run, reload }) : h('section', { class: 'apanel', 'aria-labelledby': 'adetails-roles' },
      h('h2', { id: 'adetails-roles', class: 'apanel-title' }, t('author.roles')),
      h('ul', { class: 'arows' }, roles.map((r, i) => h('li', { key: r.role, class: 'arow' },
        h('label', { class: 'afield-row' }, h('span', null, t('author.roleName')), h('input', { type: 'text', value: r.role, maxLength: 50, onChange: (e: Event) => { void saveRoles(roles.map((x, j) => (j === i ? { ...x, role: value(e).trim(), renamedFrom: x.role } : x))); } })),
        h('label', { class: 'afield-row' }, h('span', null, t('author.routingOrder')), h('input', { type: 'number', min: 1, max: 1000, value: String(r.routingOrder), onChange: (e: Event) => { void saveRoles(roles.map((x, j) => (j === i ? { ...x, routingOrder: Number(value(e)) } : x))); } })),
        h('label', { class: 'afield-row' }, h('span', null, t('author.authMethod')), h('select', { value: r.authMethod, onChange: (e: Event) => { void saveRoles(roles.map((x, j) => (j === i ? { ...x, authMethod: value(e) as AuthMethod } : x))); } }, AUTH_METHODS.map((m) => h('option', { key: m, value: m }, authName(m))))),
        h('button', { type: 'button', class: 'button button-secondary button-small', disabled: roles.length < 2, onClick: () => { void saveRoles(roles.filter((_, j) => j !== i)); } }, t('author.removeNamed', { name: r.role }))))),
      h('button', { type: 'button', class: 'button button-secondary button-small', onClick: () => { void saveRoles([...roles, { role: t('author.newRole', { n: roles.length + 1 }), routingOrder: roles.length + 1, authMethod: 'email_otp' }]); } }, t('author.addRole'))),
    h('section', { class: 'apanel', 'aria-labelledby': 'adetails-documents' },
      h('h2', { id: 'adetails-documents', class: 'apanel-title' }, t('author.documents')),
      h('ul', { class: 'arows' }, originals(resource).map((d, i) => h('li', { key: d.id, class: 'arow' }, h('span', null, d.name ?? t('author.documentN', { n: i + 1 })),
        envelope ? h('button', { type: 'button', class: 'button button-secondary button-small', onClick: () => { void run(async () => { await api.call('DELETE', `${base}/documents/${encodeURIComponent(d.id)}`); await reload(); }); } }, t('author.removeNamed', { name: d.name ?? '' })) : null))),
      h('label', { class: 'afield-row' }, h('span', null, t('author.addDocument')),
        h('input', {
          type: 'file', accept: 'application/pdf',
          onChange: (e: Event) => {
            const file = (e.target as HTMLInputElement).files?.[0];
            if (file) void run(async () => { await api.call('POST', `${base}/document?filename=${encodeURIComponent(file.name)}`, file); await reload(); });
          },
        }))));
}

function Signers({ api, resource, run, reload }: { api: AuthorApi; resource: Resource; run: (work: () => Promise<unknown>) => Promise<void>; reload: () => Promise<void> }) {
  const base = basePath(resource.kind, resource.id);
  const signers = [...(resource.signers ?? [])].sort((a, b) => a.routingOrder - b.routingOrder);
  const put = (s: ApiSigner, patch: Partial<ApiSigner>) => run(async () => {
    const { locale, ...next } = { name: s.name, email: s.email, phone: s.phone ?? null, routingOrder: s.routingOrder, authMethod: s.authMethod, locale: s.locale ?? null, ...patch };
    // The PUT takes the POST's body: no locale means the account's default
    await api.call('PUT', `${base}/signers/${encodeURIComponent(s.id)}`, locale ? { ...next, locale } : next);
    await reload();
  });
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const add = (event: Event) => {
    event.preventDefault();
    const order = Math.max(0, ...signers.map((s) => s.routingOrder)) + 1;
    void run(async () => {
      await api.call('POST', `${base}/signers`, { name, email, routingOrder: order });
      setName('');
      setEmail('');
      await reload();
    });
  };
  return h('section', { class: 'apanel', 'aria-labelledby': 'adetails-signers' },
    h('h2', { id: 'adetails-signers', class: 'apanel-title' }, t('author.signers')),
    h('ul', { class: 'arows' }, signers.map((s) => h('li', { key: s.id, class: 'arow', 'data-signer-id': s.id },
      h('label', { class: 'afield-row' }, h('span', null, t('author.name')), h('input', { type: 'text', value: s.name, maxLength: 200, onChange: (e: Event) => { void put(s, { name: value(e) }); } })),
      h('label', { class: 'afield-row' }, h('span', null, t('author.email')), h('input', { type: 'email', value: s.email, onChange: (e: Event) => { void put(s, { email: value(e) }); } })),
      h('label', { class: 'afield-row' }, h('span', null, t('author.routingOrder')), h('input', { type: 'number', min: 1, max: 1000, value: String(s.routingOrder), onChange: (e: Event) => { void put(s, { routingOrder: Number(value(e)) }); } })),
      h('label', { class: 'afield-row' }, h('span', null, t('author.authMethod')), h('select', { value: s.authMethod, onChange: (e: Event) => { void put(s, { authMethod: value(e) as AuthMethod }); } }, AUTH_METHODS.map((m) => h('option', { key: m, value: m }, authName(m))))),
      h('label', { class: 'afield-row' }, h('span', null, t('author.locale')), h('select', { value: s.locale ?? '', onChange: (e: Event) => { void put(s, { locale: value(e) || null }); } },
        h('option', { value: '' }, t('author.localeDefault')), Object.keys(LOCALES).map((tag) => h('option', { key: tag, value: tag, lang: tag }, localeName(tag))))),
      h('button', { type: 'button', class: 'button button-secondary button-small', disabled: signers.length < 2, onClick: () => { void run(async () => { await api.call('DELETE', `${base}/signers/${encodeURIComponent(s.id)}`); await reload(); }); } }, t('author.removeNamed', { name: s.name }))))),
    h('form', { class: 'aadd', onSubmit: add },
      h('label', { class: 'afield-row' }, h('span', null, t('author.name')), h('input', { type: 'text', required: true, maxLength: 200, value: name, onInput: (e: Event) => { setName(value(e)); } })),
      h('label', { class: 'afield-row' }, h('span', null, t('author.email')), h('input', { type: 'email', required: true, value: email, onInput: (e: Event) => { setEmail(value(e)); } })),
      h('button', { type: 'submit', class: 'button button-secondary button-small' }, t('author.addSigner'))));
}
