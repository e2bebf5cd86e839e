/**
 * Embedded authoring over HTTP on the local stack: the URL, its page framed only by the application's origins, one
 * opening, and the editor's calls (on the signing host, with its session) placing, moving and removing fields as the
 * API then reads them; in full mode the session renames, and sends. The studio makes a draft from an uploaded PDF.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { buildWeb } from '../../web/build.ts';
import { call, newApp } from '#test/support/api.ts';
import { createMultipart, sigField, signer, type EnvelopeBody } from '#test/support/envelopes.ts';

const signingHost = () => inject('signingUrl');
interface Issued { url: string; expiresAt: string }
interface Opened { session: string; sessionExpiresAt: string; kind: string; id: string; mode: string; returnUrl: string | null; embedOrigins: string[] }
interface FieldBody { id: string; page: number; x: number; y: number; w: number; h: number; documentId: string }

interface Answer<T> { status: number; body: T }

/** What the editor does: the signing host's API paths, the session as the bearer token. */
async function editor<T = Record<string, unknown>>(session: string, method: string, path: string, json?: unknown): Promise<Answer<T>> {
  const headers: Record<string, string> = { authorization: `Bearer ${session}`, ...(json === undefined ? {} : { 'content-type': 'application/json' }) };
  const response = await fetch(`${signingHost()}${path}`, { method, headers, ...(json === undefined ? {} : { body: JSON.stringify(json) }) });
  const text = await response.text();
  return { status: response.status, body: (text && response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : {}) as T };
}

const ticketOf = (url: string) => url.split('/author/')[1] ?? '';
const open = (url: string) => fetch(`${signingHost()}/v1/authoring/${ticketOf(url)}/open`, { method: 'POST' });

async function draft(token: string, subject: string): Promise<EnvelopeBody> {
  const created = await createMultipart(token, { tenantId: 'authoring', subject, signers: [signer(`${randomUUID().slice(0, 8)}@example.com`, 1, { authMethod: 'none' })], fields: [sigField(0)] });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body;
}

describe('embedded authoring', () => {
  beforeAll(() => buildWeb({ ifStale: true, quiet: true }), 120_000);

  it('issues a URL whose page only the application\'s origins may frame, opened once', async () => {
    const app = await newApp('authoring frame');
    await call('PUT', '/v1/console/settings', { token: app.token, json: { embedOrigins: ['https://app.example.com'] } });
    const envelope = await draft(app.token, 'Framed');
    const issued = await call<Issued>('POST', `/v1/envelopes/${envelope.id}/authoring-url`, { token: app.token, json: { returnUrl: 'https://app.example.com/done' } });
    expect(issued.status, JSON.stringify(issued.body)).toBe(200);
    expect(issued.body.url.startsWith(`${signingHost()}/author/`)).toBe(true);
    expect(Date.parse(issued.body.expiresAt) - Date.now()).toBeLessThanOrEqual(600_000 + 5_000);
    const page = await fetch(issued.body.url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.headers.get('content-security-policy')).toMatch(/frame-ancestors https:\/\/app\.example\.com$/);
    expect(page.headers.get('x-frame-options')).toBeNull();

    const first = await open(issued.body.url);
    expect(first.status).toBe(200);
    expect(await first.json()).toMatchObject({ kind: 'envelope', id: envelope.id, mode: 'fields', returnUrl: 'https://app.example.com/done', embedOrigins: ['https://app.example.com'] });
    const again = await open(issued.body.url);
    expect(again.status).toBe(401);
    expect(((await again.json()) as { reason: string }).reason).toBe('link_opened');

    // Without embedOrigins nobody frames it, nor a page of a ticket that is not one
    const plain = await newApp('authoring unframed');
    const other = await draft(plain.token, 'Unframed');
    const unframed = await call<Issued>('POST', `/v1/envelopes/${other.id}/authoring-url`, { token: plain.token });
    expect((await fetch(unframed.body.url)).headers.get('content-security-policy')).toMatch(/frame-ancestors 'none'$/);
    expect((await fetch(`${signingHost()}/author/not-a-ticket`)).headers.get('content-security-policy')).toMatch(/frame-ancestors 'none'$/);
  });

  it('places, moves and removes fields through the session as the API then reads them, and sends in full mode', async () => {
    const app = await newApp('authoring edits');
    const envelope = await draft(app.token, 'Edited');
    const issued = await call<Issued>('POST', `/v1/envelopes/${envelope.id}/authoring-url`, { token: app.token, json: { mode: 'fields' } });
    const { session } = await (await open(issued.body.url)).json() as Opened;
    const read = await editor<EnvelopeBody & { fields: FieldBody[] }>(session, 'GET', `/v1/envelopes/${envelope.id}`);
    expect(read.status).toBe(200);
    const signerId = read.body.signers[0]?.id ?? '';
    const original = read.body.fields[0];
    if (!original) throw new Error('the draft has its field');

    const placed = await editor<FieldBody>(session, 'POST', `/v1/envelopes/${envelope.id}/fields`, { signerId, type: 'date', page: 2, x: 72, y: 200, w: 120, h: 20 });
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    const moved = await editor<FieldBody>(session, 'PUT', `/v1/envelopes/${envelope.id}/fields/${placed.body.id}`, { signerId, type: 'date', page: 1, x: 300, y: 500, w: 130, h: 22 });
    expect(moved.body).toMatchObject({ id: placed.body.id, page: 1, x: 300, y: 500, w: 130, h: 22 });
    const outside = await editor(session, 'PUT', `/v1/envelopes/${envelope.id}/fields/${placed.body.id}`, { signerId, type: 'date', page: 1, x: 5000, y: 500, w: 130, h: 22 });
    expect(outside).toMatchObject({ status: 400, body: { error: 'validation_error' } });
    expect((await editor(session, 'DELETE', `/v1/envelopes/${envelope.id}/fields/${original.id}`)).status).toBe(204);
    expect((await editor(session, 'POST', `/v1/envelopes/${envelope.id}/send`, {})).status).toBe(403);

    const api = await call<EnvelopeBody & { fields: FieldBody[] }>('GET', `/v1/envelopes/${envelope.id}`, { token: app.token });
    expect(api.body.fields).toEqual([moved.body]);

    // Full mode: the subject, then the send, each recorded as the application's change
    const full = await call<Issued>('POST', `/v1/envelopes/${envelope.id}/authoring-url`, { token: app.token, json: { mode: 'full' } });
    const fullSession = ((await (await open(full.body.url)).json()) as Opened).session;
    expect((await editor(fullSession, 'PATCH', `/v1/envelopes/${envelope.id}`, { subject: 'Edited and sent' })).status).toBe(200);
    const renewed = await editor<{ session: string }>(fullSession, 'POST', '/v1/authoring/session');
    expect(renewed.status).toBe(200);
    const sent = await editor<{ status: string }>(renewed.body.session, 'POST', `/v1/envelopes/${envelope.id}/send`, {});
    expect(sent).toMatchObject({ status: 200, body: { status: 'sent' } });
    const after = await call<EnvelopeBody>('GET', `/v1/envelopes/${envelope.id}`, { token: app.token });
    expect(after.body).toMatchObject({ status: 'sent', subject: 'Edited and sent' });
    expect(after.body.auditLog?.map((e) => e.event)).toEqual(expect.arrayContaining(['envelope.authoring_url_issued', 'field.added', 'field.updated', 'field.removed', 'envelope.updated', 'envelope.sent']));
    // A sent envelope is no longer open to the editor
    expect((await call('POST', `/v1/envelopes/${envelope.id}/authoring-url`, { token: app.token })).status).toBe(400);
    expect((await call('GET', '/v1/envelopes?tenantId=authoring', { token: fullSession })).status).toBe(401);
    expect((await editor(fullSession, 'GET', `/v1/envelopes/${envelope.id}/audit/verify`)).status).toBe(401);
  });
});

describe('the studio (/_local/studio)', () => {
  beforeAll(() => buildWeb({ ifStale: true, quiet: true }), 120_000);

  it('makes a draft of the development application from an uploaded PDF and answers a working editor URL', async () => {
    const tenantId = `studio-${randomUUID().slice(0, 8)}`;
    const form = new FormData();
    form.set('file', new Blob([readFileSync('test/fixtures/sample.pdf')], { type: 'application/pdf' }), 'lease.pdf');
    for (const [name, value] of Object.entries({ tenantId, subject: 'Studio lease', signerName: 'Ana Silva', signerEmail: 'ana.studio@example.com' })) form.set(name, value);
    const made = await call<{ envelopeId: string; url: string; expiresAt: string }>('POST', '/_local/studio/drafts', { form, headers: { accept: 'application/json' } });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body.url.startsWith(`${signingHost()}/author/`)).toBe(true);
    expect((await fetch(made.body.url)).status).toBe(200);
    const opened = await (await open(made.body.url)).json() as Opened;
    expect(opened).toMatchObject({ kind: 'envelope', id: made.body.envelopeId, mode: 'full', returnUrl: expect.stringContaining('/_local/studio') as unknown });
    const envelope = await editor<EnvelopeBody>(opened.session, 'GET', `/v1/envelopes/${made.body.envelopeId}`);
    expect(envelope.body).toMatchObject({ status: 'draft', subject: 'Studio lease', signers: [{ name: 'Ana Silva', email: 'ana.studio@example.com' }] });

    // The page lists it, and a browser's form post goes straight into the editor
    const page = await fetch(`${inject('apiUrl')}/_local/studio?tenantId=${tenantId}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Studio lease');
    const reopen = await fetch(`${inject('apiUrl')}/_local/studio/open`, { method: 'POST', redirect: 'manual', body: new URLSearchParams({ kind: 'envelope', id: made.body.envelopeId, tenantId }) });
    expect(reopen.status).toBe(303);
    expect(reopen.headers.get('location')?.startsWith(`${signingHost()}/author/`)).toBe(true);
    const empty = await call('POST', '/_local/studio/drafts', { form: new FormData(), headers: { accept: 'application/json' } });
    expect(empty.status).toBe(400);
  });
});
