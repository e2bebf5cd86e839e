/**
 * Settings → Branding: the application's branding, or one tenant's override of it, through the branding routes
 * (docs/branding.md). The preview uses the API's own contrast rules, so the text colour shown is the one signers get.
 */
import { useState } from 'preact/hooks';
import { brandColors, contrastRatio, isHexColor } from '#shared/console/branding.ts';
import { ApiProblem, call } from '../console-api.ts';
import { t } from '../console-i18n.ts';
import { Done, Loading, Problem, TextField, useAction, useLoad } from '../console-kit.tsx';

interface Logo { url: string; contentType: string; sizeBytes: number }
interface Effective { organizationName: string; primaryColor: string; emailFromName: string; replyTo: string | null; supportEmail: string | null; logo: Logo | null }
interface Branding {
  organizationName: string | null; primaryColor: string | null; emailFromName: string | null; replyTo: string | null; supportEmail: string | null;
  logo: Logo | null; effective: Effective | null;
}

const FIELDS = ['organizationName', 'primaryColor', 'emailFromName', 'replyTo', 'supportEmail'] as const;
type Field = (typeof FIELDS)[number];
type Values = Record<Field, string>;

const routeOf = (tenant: string) => (tenant ? `/v1/console/tenants/${encodeURIComponent(tenant)}/branding` : '/v1/console/branding');
const valuesOf = (b: Branding | null): Values => Object.fromEntries(FIELDS.map((f) => [f, b?.[f] ?? ''])) as Values;

/** The application's form sends every field (an empty address clears it); a tenant's sends only what it overrides. */
function requestOf(values: Values, tenant: string, logo: string | null | undefined): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const field of FIELDS) {
    const value = values[field].trim();
    if (value) body[field] = value;
    else if (!tenant && (field === 'replyTo' || field === 'supportEmail')) body[field] = null;
  }
  if (logo !== undefined) body.logo = logo;
  return body;
}

/** The API's refusal of a logo in the console's words; anything else as the API said it. */
function LogoProblem(props: { error: unknown }) {
  const error = props.error;
  if (error instanceof ApiProblem && error.reason === 'logo_too_large') return <div class="notice notice-error" role="alert"><p>{t('branding.tooLarge')}</p></div>;
  if (error instanceof ApiProblem && error.reason === 'logo_invalid') return <div class="notice notice-error" role="alert"><p>{t('branding.invalidLogo', { message: error.message })}</p></div>;
  return <Problem error={error} />;
}

function Preview(props: { name: string; color: string; logoUrl: string | null }) {
  if (!isHexColor(props.color)) return null;
  const colors = brandColors(props.color);
  const white = colors.textColor === '#ffffff';
  return (
    <div class="brand-preview stack">
      <h3>{t('branding.preview')}</h3>
      <div class="brand-band" style={{ background: colors.primaryColor, color: colors.textColor }}>
        {props.logoUrl ? <img src={props.logoUrl} alt="" height={32} /> : null}
        <span>{props.name}</span>
      </div>
      <p class="hint" data-testid="contrast">
        {t('branding.textOn', { color: white ? 'white' : 'black', ratio: contrastRatio(colors.primaryColor, colors.textColor).toFixed(1), accent: colors.accentColor })}
      </p>
    </div>
  );
}

function readFile(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => { resolve(typeof reader.result === 'string' ? reader.result : ''); };
    reader.onerror = () => { reject(reader.error ?? new Error('unreadable')); };
    reader.readAsDataURL(file);
  });
}

/** The form of one scope (the application, or one tenant): drawn afresh for each, with that scope's values. */
function BrandingForm(props: { tenant: string; data: Branding; reload: () => void; onSaved: () => void }) {
  const { tenant, data } = props;
  const [values, setValues] = useState<Values>(() => valuesOf(data));
  // undefined: keep the logo in force; null: remove it; a data: URI: the new one
  const [logo, setLogo] = useState<string | null | undefined>(undefined);
  const [fileKey, setFileKey] = useState(0);
  const action = useAction();
  const effective = data.effective;
  const set = (field: Field) => (value: string) => { setValues((v) => ({ ...v, [field]: value })); };
  const placeholder = (field: Field) => (tenant ? effective?.[field] ?? '' : '');
  const chooseLogo = (e: Event) => {
    const file = (e.currentTarget as HTMLInputElement).files?.[0];
    if (file) void readFile(file).then(setLogo);
  };
  const submit = (event: Event) => {
    event.preventDefault();
    void action.run(async () => {
      await call<Branding>('PUT', routeOf(tenant), { json: requestOf(values, tenant, logo) });
      setLogo(undefined);
      setFileKey((k) => k + 1);
      props.reload();
      if (!tenant) props.onSaved();
      return t('branding.saved');
    });
  };
  /** The value typed, else (a tenant's empty field) the one in force. */
  const shown = (field: 'organizationName' | 'primaryColor') => { const typed = values[field].trim(); return typed === '' ? effective?.[field] ?? '' : typed; };
  const color = shown('primaryColor');
  const logoUrl = logo === null ? null : logo ?? data.logo?.url ?? effective?.logo?.url ?? null;
  const text = (field: Field, label: Parameters<typeof t>[0], type: 'text' | 'email' = 'text', required = false) => (
    <TextField id={`brand-${field}`} label={t(label)} type={type} required={required} value={values[field]} placeholder={placeholder(field)} onValue={set(field)} />
  );
  return (
    <form class="stack" onSubmit={submit} data-scope={tenant}>
      <p class="notice notice-info">{tenant ? t('branding.ofTenant', { tenant }) : t('branding.ofApplication')}</p>
      {text('organizationName', 'branding.name', 'text', !tenant)}
      <div class="form-row">
        <label for="brand-primaryColor">{t('branding.color')}</label>
        <div class="color-row">
          <input id="brand-primaryColor" type="text" pattern="#[0-9a-fA-F]{6}" required={!tenant} value={values.primaryColor} placeholder={placeholder('primaryColor') || '#1d4ed8'}
            onInput={(e) => { set('primaryColor')(e.currentTarget.value); }} />
          <input type="color" aria-label={t('branding.pickColor')} value={isHexColor(color) ? color : '#1d4ed8'} onInput={(e) => { set('primaryColor')(e.currentTarget.value); }} />
        </div>
      </div>
      {text('emailFromName', 'branding.fromName', 'text', !tenant)}
      {text('replyTo', 'branding.replyTo', 'email')}
      {text('supportEmail', 'branding.support', 'email')}
      <div class="form-row">
        <label for="brand-logo">{t('branding.logo')}</label>
        <input key={fileKey} id="brand-logo" type="file" accept="image/png,image/svg+xml" onChange={chooseLogo} />
      </div>
      {data.logo && logo !== null ? (
        <div class="actions"><button type="button" class="button button-secondary button-small" onClick={() => { setLogo(null); }}>{t('branding.removeLogo')}</button></div>
      ) : null}
      <Preview name={shown('organizationName')} color={color} logoUrl={logoUrl} />
      <LogoProblem error={action.error} />
      <Done message={action.done} />
      <div class="actions"><button type="submit" class="button button-primary" disabled={action.busy}>{t('branding.save')}</button></div>
    </form>
  );
}

export function BrandingPanel(props: { onSaved: () => void }) {
  const [tenantInput, setTenantInput] = useState('');
  const [tenant, setTenant] = useState('');
  // Each answer names its scope: while another scope loads, the form shown is never filled with the last one's values
  const loaded = useLoad(async () => ({ tenant, branding: await call<Branding>('GET', routeOf(tenant)) }), [tenant]);
  const show = (event: Event) => { event.preventDefault(); setTenant(tenantInput.trim()); };
  const current = loaded.data?.tenant === tenant ? loaded.data.branding : null;
  return (
    <section class="panel stack" aria-labelledby="branding-heading">
      <h2 id="branding-heading">{t('branding.heading')}</h2>
      <form class="inline-form" onSubmit={show}>
        <div class="form-row grow">
          <label for="brand-tenant">{t('branding.tenant')}</label>
          <input id="brand-tenant" type="text" value={tenantInput} aria-describedby="brand-tenant-hint" onInput={(e) => { setTenantInput(e.currentTarget.value); }} />
          <p class="hint" id="brand-tenant-hint">{t('branding.tenantHint')}</p>
        </div>
        <button type="submit" class="button button-secondary">{t('branding.show')}</button>
      </form>
      <Problem error={loaded.error} />
      {current ? <BrandingForm key={tenant} tenant={tenant} data={current} reload={loaded.reload} onSaved={props.onSaved} /> : loaded.error ? null : <Loading />}
    </section>
  );
}
