/** Admin settings: branding, embed origins, webhooks with their failed deliveries, API clients (secret shown once). */
import { useEffect, useState } from 'preact/hooks';
import { call } from '../console-api.ts';
import { formatTime, t } from '../console-i18n.ts';
import { Dialog, Done, Heading, Loading, Problem, useAction, useLoad } from '../console-kit.tsx';
import { BrandingPanel } from './branding-panel.tsx';

function EmbedOrigins() {
  const loaded = useLoad(() => call<{ embedOrigins: string[] }>('GET', '/v1/console/settings'), []);
  const [text, setText] = useState('');
  const action = useAction();
  useEffect(() => { if (loaded.data) setText(loaded.data.embedOrigins.join('\n')); }, [loaded.data]);
  const submit = (event: Event) => {
    event.preventDefault();
    void action.run(async () => {
      const embedOrigins = text.split(/\s+/).map((o) => o.trim()).filter(Boolean);
      const saved = await call<{ embedOrigins: string[] }>('PUT', '/v1/console/settings', { json: { embedOrigins } });
      setText(saved.embedOrigins.join('\n'));
      return t('settings.saved');
    });
  };
  return (
    <form class="panel stack" onSubmit={submit} aria-labelledby="origins-heading">
      <h2 id="origins-heading">{t('settings.origins')}</h2>
      <Problem error={loaded.error} />
      <div class="form-row">
        <label for="origins">{t('settings.originsLabel')}</label>
        <textarea id="origins" rows={4} aria-describedby="origins-hint" disabled={!loaded.data} value={text} onInput={(e) => { setText(e.currentTarget.value); }} />
        <p class="hint" id="origins-hint">{t('settings.originsHint')}</p>
      </div>
      <Problem error={action.error} />
      <Done message={action.done} />
      <div class="actions"><button type="submit" class="button button-primary" disabled={action.busy || !loaded.data}>{t('settings.save')}</button></div>
    </form>
  );
}

interface Webhook { id: string; url: string; events: string[]; active: boolean }
interface Delivery { id: string; event: string; envelopeId: string; attempts: number; lastStatusCode: number | null; lastError: string | null; createdAt: string; status: string }

function Deliveries(props: { webhook: Webhook }) {
  const loaded = useLoad(() => call<{ data: Delivery[] }>('GET', `/v1/webhooks/${props.webhook.id}/deliveries`, { query: { status: 'failed' } }), [props.webhook.id]);
  const action = useAction();
  const resend = (d: Delivery) => {
    void action.run(async () => {
      const after = await call<Delivery>('POST', `/v1/webhooks/${props.webhook.id}/deliveries/${d.id}/resend`);
      loaded.reload();
      return after.status === 'delivered' ? t('webhooks.resent') : t('webhooks.stillFailing');
    });
  };
  if (!loaded.data) return loaded.error ? <Problem error={loaded.error} /> : <Loading />;
  return (
    <div class="stack">
      <Problem error={action.error} />
      <Done message={action.done} tone="info" />
      {loaded.data.data.length === 0 ? <p class="hint">{t('webhooks.noFailures')}</p> : (
        <ul class="deliveries">
          {loaded.data.data.map((d) => (
            <li key={d.id}>
              <span><strong>{d.event}</strong> · {formatTime(d.createdAt)} · {t('webhooks.attempts', { attempts: d.attempts })}{d.lastStatusCode ? ` · HTTP ${String(d.lastStatusCode)}` : ''}{d.lastError ? ` · ${d.lastError}` : ''}</span>
              <button type="button" class="button button-secondary button-small" disabled={action.busy} onClick={() => { resend(d); }}>{t('webhooks.resend')}</button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function Webhooks() {
  const loaded = useLoad(() => call<Webhook[]>('GET', '/v1/webhooks'), []);
  return (
    <section class="panel stack" aria-labelledby="webhooks-heading">
      <h2 id="webhooks-heading">{t('webhooks.heading')}</h2>
      <Problem error={loaded.error} />
      {loaded.data?.length === 0 ? <p class="hint">{t('webhooks.none')}</p> : null}
      {loaded.data?.map((w) => (
        <details key={w.id} class="webhook">
          <summary><span class="url">{w.url}</span> <span class="muted">{w.active ? t('webhooks.active') : t('webhooks.inactive')}</span></summary>
          <p class="hint">{w.events.join(', ')}</p>
          <h3>{t('webhooks.failed')}</h3>
          <Deliveries webhook={w} />
        </details>
      ))}
    </section>
  );
}

interface ApiClient { clientId: string; name: string; createdAt: string; clientSecret?: string; primary?: boolean }

function ApiClients() {
  const loaded = useLoad(() => call<{ data: ApiClient[] } | ApiClient[] | null>('GET', '/v1/console/clients', { optional: true }), []);
  const [name, setName] = useState('');
  const [secret, setSecret] = useState<ApiClient | null>(null);
  const [revoking, setRevoking] = useState<ApiClient | null>(null);
  const action = useAction();
  if (loaded.data === null && !loaded.loading && !loaded.error) return null; // this deployment has no client routes
  const clients = Array.isArray(loaded.data) ? loaded.data : loaded.data?.data ?? [];
  const create = (event: Event) => {
    event.preventDefault();
    void action.run(async () => {
      setSecret(await call<ApiClient>('POST', '/v1/console/clients', { json: { name: name.trim() } }));
      setName('');
      loaded.reload();
      return t('clients.created');
    });
  };
  const revoke = () => {
    const client = revoking;
    if (!client) return;
    void action.run(async () => {
      await call('DELETE', `/v1/console/clients/${encodeURIComponent(client.clientId)}`);
      setRevoking(null);
      loaded.reload();
      return t('clients.revoked', { name: client.name });
    });
  };
  return (
    <section class="panel stack" aria-labelledby="clients-heading">
      <h2 id="clients-heading">{t('clients.heading')}</h2>
      <Problem error={loaded.error ?? action.error} />
      <Done message={action.done} />
      {secret?.clientSecret ? (
        <div class="notice notice-success secret" role="status">
          <p><strong>{t('clients.secretOnce')}</strong></p>
          <dl class="facts"><dt>{t('clients.id')}</dt><dd><code>{secret.clientId}</code></dd><dt>{t('clients.secret')}</dt><dd><code>{secret.clientSecret}</code></dd></dl>
        </div>
      ) : null}
      <ul class="clients">
        {clients.map((c) => (
          <li key={c.clientId}>
            <span><strong>{c.name}</strong> <code class="muted">{c.clientId}</code> · {formatTime(c.createdAt)}</span>
            {c.primary ? null : <button type="button" class="button button-secondary button-small" onClick={() => { setRevoking(c); }}>{t('clients.revoke', { name: c.name })}</button>}
          </li>
        ))}
      </ul>
      <form class="inline-form" onSubmit={create}>
        <div class="form-row grow">
          <label for="client-name">{t('clients.name')}</label>
          <input id="client-name" type="text" required maxLength={100} value={name} onInput={(e) => { setName(e.currentTarget.value); }} />
        </div>
        <button type="submit" class="button button-primary" disabled={action.busy}>{t('clients.create')}</button>
      </form>
      <Dialog open={revoking !== null} title={t('clients.revokeTitle')} confirm={t('clients.revokeConfirm')} danger busy={action.busy} onClose={() => { setRevoking(null); }} onConfirm={revoke}>
        <p>{t('clients.revokeText', { name: revoking?.name ?? '' })}</p>
      </Dialog>
    </section>
  );
}

export function SettingsScreen(props: { onBrandingSaved: () => void }) {
  return (
    <div class="stack">
      <Heading>{t('settings.heading')}</Heading>
      <BrandingPanel onSaved={props.onBrandingSaved} />
      <EmbedOrigins />
      <Webhooks />
      <ApiClients />
    </div>
  );
}
