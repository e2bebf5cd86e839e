/** The envelopes of a tenant: a status filter, a search by subject or signer email, pages of 20, newest first. */
import { useState } from 'preact/hooks';
import { call } from '../console-api.ts';
import { formatTime, t } from '../console-i18n.ts';
import { Heading, Link, Loading, navigate, Problem, Status, useLoad } from '../console-kit.tsx';
import { ENVELOPE_STATUSES, rememberedTenant, rememberTenant, type Envelope, type Page } from '../console-model.ts';
import { statusLabel } from '../console-words.ts';

const PAGE_SIZE = 20;

/** The list's state is in the address (?tenant=&status=&q=&page=), so Back and a shared link show the same list. */
function readQuery() {
  const params = new URLSearchParams(window.location.search);
  return {
    tenant: params.get('tenant') ?? rememberedTenant(),
    status: params.get('status') ?? '',
    q: params.get('q') ?? '',
    page: Math.max(1, Number(params.get('page') ?? '1') || 1),
  };
}

function go(query: ReturnType<typeof readQuery>): void {
  const params = new URLSearchParams();
  params.set('tenant', query.tenant);
  if (query.status) params.set('status', query.status);
  if (query.q) params.set('q', query.q);
  if (query.page > 1) params.set('page', String(query.page));
  rememberTenant(query.tenant);
  navigate(`/app/envelopes?${params.toString()}`);
}

export function EnvelopeList() {
  const query = readQuery();
  const [draft, setDraft] = useState(query);
  const list = useLoad(() => call<Page<Envelope>>('GET', '/v1/envelopes', {
    query: { tenantId: query.tenant, status: query.status, q: query.q, page: query.page, pageSize: PAGE_SIZE },
  }), [query.tenant, query.status, query.q, query.page]);
  const submit = (event: Event) => {
    event.preventDefault();
    go({ ...draft, tenant: draft.tenant.trim() || 'default', page: 1 });
  };
  const pages = list.data ? Math.max(1, Math.ceil(list.data.total / PAGE_SIZE)) : 1;
  return (
    <div class="stack">
      <div class="title-row">
        <Heading>{t('envelopes.heading')}</Heading>
        <Link href="/app/envelopes/new" class="button button-primary">{t('envelopes.new')}</Link>
      </div>
      <form class="filters" role="search" onSubmit={submit}>
        <div class="form-row">
          <label for="f-tenant">{t('envelopes.tenant')}</label>
          <input id="f-tenant" type="text" value={draft.tenant} onInput={(e) => { setDraft({ ...draft, tenant: e.currentTarget.value }); }} />
        </div>
        <div class="form-row">
          <label for="f-status">{t('envelopes.status')}</label>
          <select id="f-status" value={draft.status} onChange={(e) => { const status = e.currentTarget.value; setDraft({ ...draft, status }); go({ ...draft, status, page: 1 }); }}>
            <option value="">{t('envelopes.allStatuses')}</option>
            {ENVELOPE_STATUSES.map((s) => <option key={s} value={s}>{statusLabel(s)}</option>)}
          </select>
        </div>
        <div class="form-row grow">
          <label for="f-q">{t('envelopes.search')}</label>
          <input id="f-q" type="search" value={draft.q} placeholder={t('envelopes.searchHint')} onInput={(e) => { setDraft({ ...draft, q: e.currentTarget.value }); }} />
        </div>
        <button type="submit" class="button button-secondary">{t('envelopes.searchButton')}</button>
      </form>
      <Problem error={list.error} />
      {list.loading && !list.data ? <Loading /> : null}
      {list.data ? (
        <>
          <p class="hint" role="status">{t('envelopes.count', { total: list.data.total })}</p>
          {list.data.data.length === 0 ? <p class="empty">{t('envelopes.empty')}</p> : (
            <table class="records">
              <caption class="visually-hidden">{t('envelopes.heading')}</caption>
              <thead>
                <tr><th scope="col">{t('envelopes.subject')}</th><th scope="col">{t('envelopes.status')}</th><th scope="col">{t('envelopes.signers')}</th><th scope="col">{t('envelopes.created')}</th></tr>
              </thead>
              <tbody>
                {list.data.data.map((e) => (
                  <tr key={e.id}>
                    <th scope="row"><Link href={`/app/envelopes/${e.id}`}>{e.subject ?? t('envelopes.noSubject')}</Link></th>
                    <td data-label={t('envelopes.status')}><Status status={e.status} label={statusLabel(e.status)} /></td>
                    <td data-label={t('envelopes.signers')} class="signer-emails">{e.signers.map((s) => s.email).join(', ')}</td>
                    <td data-label={t('envelopes.created')}>{formatTime(e.createdAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {pages > 1 ? (
            <nav class="pager" aria-label={t('pager.label')}>
              <button type="button" class="button button-secondary button-small" disabled={query.page <= 1} onClick={() => { go({ ...query, page: query.page - 1 }); }}>{t('pager.previous')}</button>
              <span>{t('pager.position', { page: query.page, pages })}</span>
              <button type="button" class="button button-secondary button-small" disabled={query.page >= pages} onClick={() => { go({ ...query, page: query.page + 1 }); }}>{t('pager.next')}</button>
            </nav>
          ) : null}
        </>
      ) : null}
    </div>
  );
}
