/** The local service's pages for people: readiness, the API reference, the mailbox; and the clock's word on tokens. */
import { inject, describe, expect, it } from 'vitest';
import { call, newApp } from '#test/support/api.ts';

const get = (url: string) => fetch(url, { redirect: 'manual' });

describe('local pages', () => {
  it('GET /healthz says ready with every route bound; GET / points to the reference', async () => {
    const health = await call<{ status: string; routes: number; signingUrl: string }>('GET', '/healthz');
    expect(health.body).toMatchObject({ status: 'ready', signingUrl: inject('signingUrl') });
    expect(health.body.routes).toBeGreaterThan(30);
    const root = await get(`${inject('apiUrl')}/`);
    expect(root.status).toBe(302);
    expect(root.headers.get('location')).toBe('/docs/');
  });

  it('serves the API reference at /docs/ from its own files (no CDN), reading /v1/openapi.json', async () => {
    const page = await get(`${inject('apiUrl')}/docs/`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<script src="swagger-ui-bundle.js"></script>');
    expect(html).not.toMatch(/https?:\/\//);
    const init = await (await get(`${inject('apiUrl')}/docs/docs.js`)).text();
    expect(init).toContain('"/v1/openapi.json"');
    const bundle = await get(`${inject('apiUrl')}/docs/swagger-ui-bundle.js`);
    expect(bundle.headers.get('content-type')).toContain('javascript');
    expect((await bundle.arrayBuffer()).byteLength).toBeGreaterThan(500_000);
    expect((await get(`${inject('apiUrl')}/docs`)).headers.get('location')).toBe('/docs/');
    expect(page.headers.get('content-security-policy')).toMatch(/default-src 'self'.*frame-ancestors 'none'/);
    expect(page.headers.get('x-frame-options')).toBe('DENY');
  });

  it('serves the same reference on the signing host, with the document beside it and the host\'s CSP', async () => {
    const page = await get(`${inject('signingUrl')}/docs/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(await page.text()).toContain('swagger-ui-bundle.js');
    expect(await (await get(`${inject('signingUrl')}/docs/docs.js`)).text()).toContain('"openapi.json"');
    const document = await (await get(`${inject('signingUrl')}/docs/openapi.json`)).json() as { openapi: string; servers: { url: string }[] };
    expect(document.openapi).toBe('3.1.0');
    expect(document.servers).toEqual([{ url: inject('apiUrl') }]);
  });

  it('shows the outbox as a page: newest first, links clickable, HTML bodies in a sandboxed frame', async () => {
    const app = await newApp('mailbox page');
    const created = await call<{ id: string }>('POST', '/v1/envelopes', {
      token: app.token, json: { tenantId: 'mailbox', subject: 'Mailbox <b>page</b>', signers: [{ name: 'Mia', email: 'mia-mailbox@example.com' }] },
    });
    expect(created.status).toBe(201);
    const uploaded = await call('POST', `/v1/envelopes/${created.body.id}/document`, {
      token: app.token, raw: { bytes: new Uint8Array(await (await import('node:fs/promises')).readFile(new URL('../fixtures/sample.pdf', import.meta.url))), contentType: 'application/pdf' },
    });
    expect(uploaded.status).toBe(201);
    const envelope = await call<{ signers: { id: string }[] }>('GET', `/v1/envelopes/${created.body.id}`, { token: app.token });
    await call('POST', `/v1/envelopes/${created.body.id}/fields`, { token: app.token, json: { signerId: envelope.body.signers[0]?.id, type: 'signature', page: 1, x: 72, y: 72, w: 100, h: 30 } });
    expect((await call('POST', `/v1/envelopes/${created.body.id}/send`, { token: app.token, json: {} })).status).toBe(200);

    const page = await get(`${inject('apiUrl')}/_local/mailbox?to=mia-mailbox@example.com`);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = await page.text();
    expect(html).toMatch(/<a href="http:\/\/127\.0\.0\.1:\d+\/sign\/[^"]+" target="_blank"/);
    expect(html).toContain('<iframe sandbox="allow-popups allow-popups-to-escape-sandbox"');
    expect(html).not.toContain('<b>page</b>'); // the subject is text, escaped
    expect(html).toContain('Mailbox &lt;b&gt;page&lt;/b&gt;');
  });

  it('tells, when the clock moves, which bearer tokens that expired', async () => {
    const moved = await call<{ now: string; accessTokens: string }>('POST', '/_local/clock', { json: { advanceSeconds: 0 } });
    expect(moved.body.accessTokens).toMatch(/^tokens issued before \S+ have expired; request a new one from POST \/oauth\/token$/);
  });
});
