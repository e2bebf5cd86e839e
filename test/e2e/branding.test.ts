import { randomUUID } from 'node:crypto';
import { PNG } from 'pngjs';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { contrastRatio } from '#shared/console/branding.ts';
import { call, newApp } from '#test/support/api.ts';
import { createMultipart, sigField, signer, type EnvelopeBody } from '#test/support/envelopes.ts';
import { passGates, settle, signing, tokenOf, valuesFor, type ContextBody } from '#test/support/signing.ts';
import { pdftotext, tempPdf } from '#test/support/validators.ts';
import { signInWithPassword } from '#test/support/oidc-login.ts';

interface Mail { to: string; subject: string | null; text: string; html: string | null; from: { name: string | null; address: string } | null; replyTo: string[] }
interface Effective { organizationName: string; primaryColor: string; textColor: string; accentColor: string; emailFromName: string; replyTo: string | null; logo: { url: string; contentType: string } | null }
interface Branding { organizationName: string | null; logo: { url: string; contentType: string; width: number | null } | null; effective: Effective | null }
interface PageBranding { organizationName: string; primaryColor: string; textColor: string; accentColor: string; logoUrl: string | null; senderName: string | null }

const unique = (name: string) => `${name}-${randomUUID().slice(0, 8)}@example.com`;
const svgLogo = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 160 40" onload="alert(1)"><script>alert(2)</script>
<rect width="160" height="40" rx="6" fill="#ffd400"/><text x="12" y="27" font-size="20" fill="#000">ACME</text><image href="https://evil.example/x.png"/></svg>`;
const dataUri = (type: string, bytes: Buffer) => `data:${type};base64,${bytes.toString('base64')}`;
const pngLogo = () => {
  const png = new PNG({ width: 96, height: 32 });
  for (let i = 0; i < png.data.length; i += 4) png.data.set([11, 83, 148, 255], i);
  return PNG.sync.write(png);
};
const mails = async (to: string) => (await call<Mail[]>('GET', `/_local/outbox?to=${encodeURIComponent(to)}`)).body;
const pathOf = (url: string) => new URL(url).pathname;

let token: string;
beforeAll(async () => { token = (await newApp('branding e2e')).token; });

async function sentEnvelope(tenantId: string, email: string, extra: Record<string, unknown> = {}): Promise<EnvelopeBody> {
  const created = await createMultipart(token, {
    tenantId, subject: 'Supply agreement', sender: { name: 'Jane Doe', email: 'jane@acme.example' },
    signers: [signer(email, 1, { name: 'Sam Signer', authMethod: 'none' })], fields: [sigField(0)], ...extra,
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const sent = await call<EnvelopeBody>('POST', `/v1/envelopes/${created.body.id}/send`, { token });
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  await settle();
  return sent.body;
}

describe('branding over HTTP', () => {
  it('sets the application branding: the SVG logo sanitised and served publicly, the colour contrast-checked; over 200 KB is a 400', async () => {
    const put = await call<Branding>('PUT', '/v1/console/branding', { token, json: {
      organizationName: 'Acme Corp', primaryColor: '#ffd400', emailFromName: 'Acme Corp', replyTo: 'contracts@acme.example',
      supportEmail: 'help@acme.example', logo: dataUri('image/svg+xml', Buffer.from(svgLogo)),
    } });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const effective = put.body.effective;
    expect(effective).toMatchObject({ organizationName: 'Acme Corp', primaryColor: '#ffd400', textColor: '#000000' });
    // Yellow fails as text on white: links use a darker shade that passes
    expect(contrastRatio('#ffd400', '#ffffff')).toBeLessThan(4.5);
    expect(contrastRatio(effective?.accentColor ?? '#ffffff', '#ffffff')).toBeGreaterThanOrEqual(4.5);
    const logo = await call('GET', pathOf(put.body.logo?.url ?? ''));
    expect(logo.status).toBe(200);
    expect(logo.headers.get('content-type')).toBe('image/svg+xml');
    expect(logo.headers.get('content-security-policy')).toBe("default-src 'none'; style-src 'unsafe-inline'");
    expect(logo.headers.get('x-content-type-options')).toBe('nosniff');
    expect(logo.headers.get('cache-control')).toContain('immutable');
    const svg = Buffer.from(logo.bytes).toString();
    expect(svg).toContain('<rect width="160" height="40"');
    expect(svg).not.toMatch(/onload|script|alert|<image|evil/);
    expect((await call('GET', `/v1/branding/${'0'.repeat(64)}/logo`)).status).toBe(404);

    const big = await call<{ reason: string }>('PUT', '/v1/console/branding', { token, json: {
      organizationName: 'Acme Corp', primaryColor: '#ffd400', emailFromName: 'Acme Corp', logo: dataUri('image/png', Buffer.alloc(200 * 1024 + 1, 1)),
    } });
    expect(big.status).toBe(400);
    expect(big.body.reason).toBe('logo_too_large');
    expect((await call<Branding>('GET', '/v1/console/branding', { token })).body.organizationName).toBe('Acme Corp');
  });

  it('an invitation says who asks, comes from "<name> via <service>" with reply-to, and carries the logo and colour', async () => {
    const email = unique('signer');
    const envelope = await sentEnvelope('acme-us', email);
    const invitation = (await mails(email)).find((m) => m.subject === 'Please sign: Supply agreement');
    expect(invitation?.text).toContain('Jane Doe at Acme Corp asked you to sign Supply agreement.');
    expect(invitation?.html).toContain('Jane Doe at Acme Corp asked you to sign <strong>Supply agreement</strong>.');
    expect(invitation?.from).toEqual({ name: 'Acme Corp via Secure e-signature', address: expect.stringContaining('@') as unknown });
    expect(invitation?.replyTo).toEqual(['contracts@acme.example']);
    expect(invitation?.html).toMatch(/<img src="[^"]+\/v1\/branding\/[0-9a-f]{64}\/logo" alt="Acme Corp"/);
    expect(invitation?.html).toContain('background:#ffd400;color:#000000');
    expect(invitation?.text).toContain('Questions? Write to help@acme.example.');

    const context = await signing<ContextBody & { branding: PageBranding }>('GET', tokenOf(envelope.signers[0]?.signingUrl));
    expect(context.body.branding).toMatchObject({ organizationName: 'Acme Corp', primaryColor: '#ffd400', textColor: '#000000', senderName: 'Jane Doe' });
    expect(context.body.branding.logoUrl).toMatch(/^\/v1\/branding\/[0-9a-f]{64}\/logo$/);
  });

  it('a tenant override wins for that tenant, field by field', async () => {
    const put = await call<Branding>('PUT', '/v1/console/tenants/acme-eu/branding', { token, json: {
      organizationName: 'Acme Europe', primaryColor: '#0b5394', logo: dataUri('image/png', pngLogo()),
    } });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body.logo).toMatchObject({ contentType: 'image/png', width: 96 });
    // What the tenant left out stays the application's
    expect(put.body.effective).toMatchObject({ organizationName: 'Acme Europe', primaryColor: '#0b5394', textColor: '#ffffff', emailFromName: 'Acme Corp', replyTo: 'contracts@acme.example' });
    const email = unique('eu-signer');
    const envelope = await sentEnvelope('acme-eu', email);
    const invitation = (await mails(email)).find((m) => m.subject === 'Please sign: Supply agreement');
    expect(invitation?.text).toContain('Jane Doe at Acme Europe asked you to sign');
    expect(invitation?.html).toContain(pathOf(put.body.logo?.url ?? 'missing'));
    const context = await signing<{ branding: PageBranding }>('GET', tokenOf(envelope.signers[0]?.signingUrl));
    expect(context.body.branding).toMatchObject({ organizationName: 'Acme Europe', logoUrl: pathOf(put.body.logo?.url ?? '') });
    const logo = await call('GET', pathOf(put.body.logo?.url ?? ''));
    expect(logo.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(logo.bytes).equals(pngLogo())).toBe(true);
  });

  it('the sealed audit certificate names the organisation in its header, and the completion email is branded', async () => {
    const email = unique('sealer');
    const envelope = await sentEnvelope('acme-us', email);
    const link = tokenOf(envelope.signers[0]?.signingUrl);
    await passGates(link, null);
    const context = (await signing<ContextBody>('GET', link)).body;
    expect((await signing('POST', link, '/sign', { fields: valuesFor(context) })).status).toBe(200);
    await settle();
    const done = (await call<EnvelopeBody>('GET', `/v1/envelopes/${envelope.id}`, { token })).body;
    expect(done.status).toBe('completed');
    const sealed = await call('GET', `/v1/envelopes/${envelope.id}/document?kind=sealed`, { token });
    const text = pdftotext(tempPdf(sealed.bytes)).replace(/\s+/g, ' ');
    expect(text).toContain('Acme Corp: audit certificate');
    expect(text).toContain('Sent by Jane Doe <jane@acme.example> at Acme Corp');
    const completion = (await mails(email)).find((m) => m.subject === 'Completed: Supply agreement');
    expect(completion?.from?.name).toBe('Acme Corp via Secure e-signature');
    expect(completion?.text).toContain('This request came from Jane Doe at Acme Corp.');
  });

  it('a signed-in console user who gives no sender is the sender; a sender user may not change the branding', async () => {
    const email = unique('jane');
    expect((await call('POST', '/v1/console/users', { token, json: { email, name: 'Jane Console', role: 'sender' } })).status).toBe(201);
    const invite = (await mails(email)).at(-1);
    const password = /Temporary password: (\S+)/.exec(invite?.text ?? '')?.[1] ?? '';
    const { accessToken } = await signInWithPassword({
      issuer: inject('oidcIssuer'), clientId: inject('oidcClientId'), redirectUri: `${inject('signingUrl')}/app/callback`, email, password,
    });
    const to = unique('user-signer');
    const created = await createMultipart(accessToken, { tenantId: 'acme-us', subject: 'Supply agreement', signers: [signer(to, 1, { authMethod: 'none' })], fields: [sigField(0)] });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect((created.body as EnvelopeBody & { sender: unknown }).sender).toEqual({ name: 'Jane Console', email });
    expect((await call('POST', `/v1/envelopes/${created.body.id}/send`, { token: accessToken })).status).toBe(200);
    await settle();
    const invitation = (await mails(to)).find((m) => m.subject === 'Please sign: Supply agreement');
    expect(invitation?.text).toContain('Jane Console at Acme Corp asked you to sign');
    const refused = await call<{ reason: string }>('PUT', '/v1/console/branding', { token: accessToken, json: { organizationName: 'X', primaryColor: '#000000', emailFromName: 'X' } });
    expect(refused.status).toBe(403);
  });

  it('refuses a sender without a name, and a From name with a line break', async () => {
    const noName = await createMultipart(token, { tenantId: 'acme-us', sender: { email: 'x@example.com' }, signers: [signer(unique('x'))] });
    expect(noName.status).toBe(400);
    const injected = await call('PUT', '/v1/console/branding', { token, json: { organizationName: 'Acme', primaryColor: '#000000', emailFromName: 'Acme\r\nBcc: a@b.c' } });
    expect(injected.status).toBe(400);
  });
});
