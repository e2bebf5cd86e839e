/**
 * `/_local/studio` (dev only): the sender's studio for the development application. It lists the application's drafts
 * and templates of a tenant, makes a draft from an uploaded PDF, and opens the editor (embedded authoring, in `full`
 * mode) on any of them: a person prepares and sends an envelope without writing code. It is a client of the API like
 * any integrator (client credentials, then the public routes), so what it does is what an integration can do.
 */
import type { IncomingMessage } from 'node:http';
import { mediaType, parseMultipart, type UploadedFile } from '#shared/http/body.ts';
import type { HttpResult } from '#shared/http/responses.ts';
import { formatDateTime, html as message, text as plain, type MessageKey } from '#shared/i18n/messages.ts';
import { DEFAULT_LOCALE, isLocale, LOCALES, type Locale } from '#shared/i18n/locales.ts';
import type { DevHandler } from './server.ts';

export interface StudioOptions {
  apiUrl: string;
  client: { clientId: string; clientSecret: string };
}

const DEFAULT_TENANT = 'studio';

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/**
 * The studio's language, chosen as the pages choose theirs: the one picked in its switch (`lang`, carried by its
 * forms and links), else the browser's languages (Accept-Language, best first, a language's region dropped when only
 * the language has a catalogue), else English. The editor it opens gets the same.
 */
export function studioLocale(picked: string | null | undefined, acceptLanguage: string | undefined): Locale {
  if (isLocale(picked)) return picked;
  const preferred = (acceptLanguage ?? '').split(',').map((part) => {
    const [tag = '', ...params] = part.trim().split(';');
    const q = Number(params.find((p) => p.trim().startsWith('q='))?.trim().slice(2) ?? '1');
    return { tag: tag.trim(), q: Number.isFinite(q) ? q : 0 };
  }).filter((p) => p.tag && p.q > 0).sort((a, b) => b.q - a.q);
  for (const { tag } of preferred) {
    const found = LOCALES.find((l) => l.toLowerCase() === tag.toLowerCase()) ?? LOCALES.find((l) => l.toLowerCase() === tag.split('-')[0]?.toLowerCase());
    if (found) return found;
  }
  return DEFAULT_LOCALE;
}

const languageName = (tag: string) => {
  const name = new Intl.DisplayNames([tag], { type: 'language' }).of(tag) ?? tag;
  return name.charAt(0).toLocaleUpperCase(tag) + name.slice(1);
};

const html = (statusCode: number, body: string): HttpResult => ({ statusCode, headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }, body });
const json = (statusCode: number, body: unknown): HttpResult => ({ statusCode, headers: { 'content-type': 'application/json', 'cache-control': 'no-store' }, body: JSON.stringify(body) });
const wantsJson = (req: IncomingMessage) => (req.headers.accept ?? '').includes('application/json');

/** A refusal of the API, passed on as it came. */
class ApiRefusal extends Error {
  constructor(readonly status: number, readonly body: unknown) {
    super(`the API answered ${String(status)}`);
  }
}

function studioApi(options: StudioOptions) {
  async function token(): Promise<string> {
    const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: options.client.clientId, client_secret: options.client.clientSecret });
    const answer = await fetch(`${options.apiUrl}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form });
    const body = await answer.json() as { access_token?: string };
    if (!answer.ok || !body.access_token) throw new ApiRefusal(answer.status, body);
    return body.access_token;
  }
  return async function call<T>(method: string, path: string, body?: string | FormData, contentType?: string): Promise<T> {
    const headers: Record<string, string> = { authorization: `Bearer ${await token()}`, ...(contentType ? { 'content-type': contentType } : {}) };
    const answer = await fetch(`${options.apiUrl}${path}`, { method, headers, ...(body === undefined ? {} : { body }) });
    const parsed: unknown = await answer.json();
    if (!answer.ok) throw new ApiRefusal(answer.status, parsed);
    return parsed as T;
  };
}

type Call = ReturnType<typeof studioApi>;

interface Listed { id: string; subject?: string | null; name?: string; createdAt: string }

const tenantOf = (value: string | null | undefined) => (value?.trim() ? value.trim() : DEFAULT_TENANT);

function openButton(locale: Locale, kind: 'envelope' | 'template', item: Listed, tenantId: string): string {
  const title = (kind === 'envelope' ? item.subject : item.name) ?? plain(locale, 'studio.noSubject');
  return `<li><form method="post" action="/_local/studio/open"><input type="hidden" name="kind" value="${kind}"><input type="hidden" name="id" value="${escapeHtml(item.id)}">` +
    `<input type="hidden" name="tenantId" value="${escapeHtml(tenantId)}"><input type="hidden" name="lang" value="${locale}"><span>${escapeHtml(title)}</span> ` +
    `<small>${escapeHtml(formatDateTime(locale, new Date(item.createdAt)))}</small> ` +
    `<button type="submit">${message(locale, 'studio.open')}</button></form></li>`;
}

async function studioPage(call: Call, locale: Locale, tenantId: string, notice: string | null): Promise<HttpResult> {
  const query = `tenantId=${encodeURIComponent(tenantId)}&pageSize=100`;
  const [drafts, templates] = await Promise.all([
    call<{ data: Listed[] }>('GET', `/v1/envelopes?${query}&status=draft`),
    call<{ data: Listed[] }>('GET', `/v1/templates?${query}`),
  ]);
  const m = (key: MessageKey, values: Record<string, string> = {}) => message(locale, key, values);
  const list = (items: string[], empty: string) => (items.length > 0 ? `<ul>${items.join('')}</ul>` : `<p>${empty}</p>`);
  const lang = `<input type="hidden" name="lang" value="${locale}">`;
  const languages = LOCALES.map((tag) => `<option value="${tag}" lang="${tag}"${tag === locale ? ' selected' : ''}>${escapeHtml(languageName(tag))}</option>`).join('');
  return html(200, `<!doctype html>
<html lang="${locale}" dir="${locale === 'ar' ? 'rtl' : 'ltr'}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${m('studio.title')}</title></head>
<body style="font-family:sans-serif;max-width:860px;margin:1rem auto;padding:0 1rem"><main>
<h1>${m('studio.title')}</h1>
<form method="get" action="/_local/studio"><input type="hidden" name="tenantId" value="${escapeHtml(tenantId)}"><label>${m('studio.language')} <select name="lang">${languages}</select></label> <button type="submit">${m('studio.show')}</button></form>
<p>${m('studio.lead', { tenant: tenantId })}</p>
${notice ? `<p role="status"><strong>${escapeHtml(notice)}</strong></p>` : ''}
<form method="get" action="/_local/studio">${lang}<label>${m('studio.tenant')} <input name="tenantId" value="${escapeHtml(tenantId)}" maxlength="128"></label> <button type="submit">${m('studio.show')}</button></form>
<h2>${m('studio.newDraft')}</h2>
<form method="post" action="/_local/studio/drafts" enctype="multipart/form-data">
<input type="hidden" name="tenantId" value="${escapeHtml(tenantId)}">${lang}
<p><label>${m('studio.pdf')} <input type="file" name="file" accept="application/pdf" required></label></p>
<p><label>${m('studio.subject')} <input name="subject" maxlength="255"></label></p>
<p><label>${m('studio.signerName')} <input name="signerName" required maxlength="200"></label></p>
<p><label>${m('studio.signerEmail')} <input type="email" name="signerEmail" required maxlength="254"></label></p>
<p><button type="submit">${m('studio.create')}</button></p>
</form>
<h2>${m('studio.drafts')}</h2>
${list(drafts.data.map((d) => openButton(locale, 'envelope', d, tenantId)), m('studio.noDrafts'))}
<h2>${m('studio.templates')}</h2>
${list(templates.data.map((t) => openButton(locale, 'template', t, tenantId)), m('studio.noTemplates'))}
</main></body></html>`);
}

/** The editor's URL for a draft or template, returning to the studio (Done: ?event=saved, Send: ?event=sent). */
async function authoringUrl(call: Call, options: StudioOptions, locale: Locale, kind: 'envelope' | 'template', id: string, tenantId: string) {
  const returnUrl = `${options.apiUrl}/_local/studio?tenantId=${encodeURIComponent(tenantId)}&lang=${locale}`;
  const path = `/v1/${kind === 'envelope' ? 'envelopes' : 'templates'}/${encodeURIComponent(id)}/authoring-url`;
  return call<{ url: string; expiresAt: string }>('POST', path, JSON.stringify({ mode: 'full', returnUrl, locale }), 'application/json');
}

interface Form { fields: Record<string, string>; file: UploadedFile | undefined }

/** A form the browser posted: multipart (with the PDF) or urlencoded. */
async function formOf(req: IncomingMessage, body: Buffer): Promise<Form> {
  const contentType = req.headers['content-type'] ?? '';
  if (mediaType(contentType) !== 'multipart/form-data') return { fields: Object.fromEntries(new URLSearchParams(body.toString('utf8'))), file: undefined };
  const parsed = await parseMultipart(body, contentType);
  return parsed.kind === 'multipart' ? { fields: parsed.fields, file: parsed.files.find((f) => f.field === 'file') } : { fields: {}, file: undefined };
}

const text = (form: Form, name: string) => form.fields[name]?.trim() ?? '';

async function createDraft(call: Call, options: StudioOptions, locale: Locale, form: Form) {
  const { file } = form;
  if (!file || file.bytes.byteLength === 0) throw new ApiRefusal(400, { error: 'validation_error', message: plain(locale, 'studio.choosePdf'), details: { file: ['is required'] } });
  const tenantId = tenantOf(text(form, 'tenantId'));
  const data = { tenantId, subject: text(form, 'subject') || null, signers: [{ name: text(form, 'signerName'), email: text(form, 'signerEmail') }] };
  const upload = new FormData();
  upload.set('file', new Blob([file.bytes], { type: 'application/pdf' }), file.filename ?? 'document.pdf');
  upload.set('data', JSON.stringify(data));
  const envelope = await call<{ id: string }>('POST', '/v1/envelopes', upload);
  return { envelopeId: envelope.id, tenantId, ...(await authoringUrl(call, options, locale, 'envelope', envelope.id, tenantId)) };
}

/** The answer: JSON for a script, else a redirect into the editor (or the page with what went wrong). */
async function answer(req: IncomingMessage, call: Call, locale: Locale, tenantId: string, work: () => Promise<{ url: string } & Record<string, unknown>>, status = 200): Promise<HttpResult> {
  try {
    const done = await work();
    if (wantsJson(req)) return json(status, done);
    return { statusCode: 303, headers: { location: done.url, 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' }, body: `See ${done.url}` };
  } catch (error) {
    if (!(error instanceof ApiRefusal)) throw error;
    if (wantsJson(req)) return json(error.status, error.body);
    const refused = (error.body as { message?: string } | null)?.message ?? error.message;
    const page = await studioPage(call, locale, tenantId, plain(locale, 'studio.notDone', { message: refused }));
    return { ...page, statusCode: error.status };
  }
}

export function studioHandlers(options: StudioOptions): Record<string, DevHandler> {
  const call = studioApi(options);
  return {
    'GET /_local/studio': async (req, url) => {
      const locale = studioLocale(url.searchParams.get('lang'), req.headers['accept-language']);
      const event = url.searchParams.get('event');
      const notice = event === 'sent' ? plain(locale, 'studio.sent') : event === 'saved' ? plain(locale, 'studio.saved') : null;
      return studioPage(call, locale, tenantOf(url.searchParams.get('tenantId')), notice);
    },
    'POST /_local/studio/drafts': async (req, _url, body) => {
      const form = await formOf(req, body);
      const locale = studioLocale(text(form, 'lang'), req.headers['accept-language']);
      return answer(req, call, locale, tenantOf(text(form, 'tenantId')), () => createDraft(call, options, locale, form), 201);
    },
    'POST /_local/studio/open': async (req, _url, body) => {
      const form = await formOf(req, body);
      const locale = studioLocale(text(form, 'lang'), req.headers['accept-language']);
      const tenantId = tenantOf(text(form, 'tenantId'));
      const kind = text(form, 'kind') === 'template' ? 'template' : 'envelope';
      return answer(req, call, locale, tenantId, () => authoringUrl(call, options, locale, kind, text(form, 'id'), tenantId));
    },
  };
}
