import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { buildWeb } from '../../web/build.ts';
import { call, expectErrorShape, newApp, outboxFor } from '#test/support/api.ts';
import { createMultipart, sigField, signer, type EnvelopeBody } from '#test/support/envelopes.ts';
import { passGates, settle, signing, valuesFor, type ContextBody } from '#test/support/signing.ts';

const signingHost = () => inject('signingUrl');
const unique = (name: string) => `${name}-${randomUUID().slice(0, 8)}@example.com`;

interface Embedded { url: string; expiresAt: string }

async function embeddedEnvelope(token: string, embeddedEmail: string, otherEmail: string) {
  const created = await createMultipart(token, {
    tenantId: 'embed', subject: 'Embedded NDA',
    signers: [signer(embeddedEmail, 1, { authMethod: 'none', embedded: true }), signer(otherEmail, 1, { authMethod: 'none' }), signer(unique('later'), 2, { authMethod: 'none' })],
    fields: [sigField(0), sigField(1), sigField(2)],
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const sent = await call<EnvelopeBody>('POST', `/v1/envelopes/${created.body.id}/send`, { token });
  expect(sent.status).toBe(200);
  return sent.body;
}

describe('embedded signing (decision 36)', () => {
  // The embedded page is the signing app's own page, as the signing host serves it
  beforeAll(() => buildWeb({ ifStale: true, quiet: true }), 120_000);

  it('console settings: at most 20 HTTPS origins, read back', async () => {
    const app = await newApp('embed settings');
    expect((await call('GET', '/v1/console/settings', { token: app.token })).body).toEqual({ embedOrigins: [] });
    const plain = await call('PUT', '/v1/console/settings', { token: app.token, json: { embedOrigins: ['http://app.example.com'] } });
    expect(plain.status).toBe(400);
    expectErrorShape(plain.body, 'validation_error', 400);
    expect(Object.keys((plain.body as { errors: object }).errors)).toEqual(['embedOrigins[0]']);
    expect((await call('PUT', '/v1/console/settings', { token: app.token, json: { embedOrigins: ['https://app.example.com/path'] } })).status).toBe(400);
    const many = Array.from({ length: 21 }, (_, i) => `https://app${String(i)}.example.com`);
    expect((await call('PUT', '/v1/console/settings', { token: app.token, json: { embedOrigins: many } })).status).toBe(400);
    const put = await call('PUT', '/v1/console/settings', { token: app.token, json: { embedOrigins: ['https://app.example.com', 'http://127.0.0.1:4000'] } });
    expect(put.status).toBe(200);
    expect((await call('GET', '/v1/console/settings', { token: app.token })).body).toEqual({ embedOrigins: ['https://app.example.com', 'http://127.0.0.1:4000'] });
  });

  it('an embedded signer is never emailed, signs through a single-use URL framed only by the allowed origins', async () => {
    const app = await newApp('embed journey');
    await call('PUT', '/v1/console/settings', { token: app.token, json: { embedOrigins: ['https://app.example.com'] } });
    const embeddedEmail = unique('embedded');
    const otherEmail = unique('emailed');
    const envelope = await embeddedEnvelope(app.token, embeddedEmail, otherEmail);
    await settle();
    expect(await outboxFor(embeddedEmail)).toEqual([]);
    expect((await outboxFor(otherEmail)).map((m) => m.subject)).toEqual(['Please sign: Embedded NDA']);
    const [embedded, , later] = envelope.signers;
    if (!embedded || !later) throw new Error('signers missing');
    expect(envelope.signers.map((s) => (s as { embedded?: boolean }).embedded)).toEqual([true, false, false]);

    const issued = await call<Embedded>('POST', `/v1/envelopes/${envelope.id}/signers/${embedded.id}/embedded-url`, { token: app.token, json: { returnUrl: 'https://app.example.com/done' } });
    expect(issued.status, JSON.stringify(issued.body)).toBe(200);
    expect(issued.body.url.startsWith(`${signingHost()}/embed/`)).toBe(true);
    expect(Date.parse(issued.body.expiresAt) - Date.now()).toBeLessThanOrEqual(300_000 + 5_000);

    // The embedded page may be framed by the application's origins only; every other page by nobody
    const page = await fetch(issued.body.url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.headers.get('content-security-policy')).toMatch(/frame-ancestors https:\/\/app\.example\.com$/);
    expect(page.headers.get('x-frame-options')).toBeNull();
    const other = await fetch(`${signingHost()}/sign/some-token`);
    expect(other.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(other.headers.get('x-frame-options')).toBe('DENY');
    const bogus = await fetch(`${signingHost()}/embed/not-a-ticket`);
    expect(bogus.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");

    // Opened once: the page gets the signer's link; a second open is refused
    const ticket = issued.body.url.split('/embed/')[1] ?? '';
    const open = await fetch(`${signingHost()}/v1/embedded/${ticket}/open`, { method: 'POST' });
    expect(open.status).toBe(200);
    const session = await open.json() as { token: string; signerId: string; returnUrl: string; embedOrigins: string[] };
    expect(session).toMatchObject({ signerId: embedded.id, returnUrl: 'https://app.example.com/done', embedOrigins: ['https://app.example.com'] });
    const again = await fetch(`${signingHost()}/v1/embedded/${ticket}/open`, { method: 'POST' });
    expect(again.status).toBe(410);
    expect(((await again.json()) as { reason: string }).reason).toBe('link_opened');

    await passGates(session.token, null);
    const context = await signing<ContextBody>('GET', session.token);
    expect((await signing('POST', session.token, '/sign', { fields: valuesFor(context.body) })).status).toBe(200);
    const done = await call<EnvelopeBody>('GET', `/v1/envelopes/${envelope.id}`, { token: app.token });
    expect(done.body.signers[0]?.status).toBe('signed');
    expect(done.body.auditLog?.map((e) => e.event)).toContain('signer.embedded_url_issued');
    await settle();
    expect(await outboxFor(embeddedEmail)).toEqual([]);

    // Only for a signer whose routing group is current and who can still sign
    expect((await call('POST', `/v1/envelopes/${envelope.id}/signers/${later.id}/embedded-url`, { token: app.token })).status).toBe(400);
    expect((await call('POST', `/v1/envelopes/${envelope.id}/signers/${embedded.id}/embedded-url`, { token: app.token })).status).toBe(400);
    expect((await call('POST', `/v1/envelopes/${envelope.id}/signers/${randomUUID()}/embedded-url`, { token: app.token })).status).toBe(404);
  });

  it('refuses a returnUrl that is not HTTPS; a new URL replaces an unopened one', async () => {
    const app = await newApp('embed refusals');
    const envelope = await embeddedEnvelope(app.token, unique('embedded'), unique('emailed'));
    const id = envelope.signers[0]?.id ?? '';
    const bad = await call('POST', `/v1/envelopes/${envelope.id}/signers/${id}/embedded-url`, { token: app.token, json: { returnUrl: 'http://evil.example.com/' } });
    expect(bad.status).toBe(400);
    expectErrorShape(bad.body, 'validation_error', 400);
    const first = await call<Embedded>('POST', `/v1/envelopes/${envelope.id}/signers/${id}/embedded-url`, { token: app.token });
    const second = await call<Embedded>('POST', `/v1/envelopes/${envelope.id}/signers/${id}/embedded-url`, { token: app.token });
    const open = (url: string) => fetch(`${signingHost()}/v1/embedded/${url.split('/embed/')[1] ?? ''}/open`, { method: 'POST' });
    const stale = await open(first.body.url);
    expect(stale.status).toBe(401);
    expect(((await stale.json()) as { reason: string }).reason).toBe('link_replaced');
    expect((await open(second.body.url)).status).toBe(200);
    // No application origins: the page may not be framed at all
    expect((await fetch(second.body.url)).headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });
});
