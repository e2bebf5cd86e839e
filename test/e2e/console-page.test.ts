/** The local signing host serves the console: its page for every /app/ path, with its own policy, and the API under /v1/. */
import { describe, expect, inject, it } from 'vitest';
import { buildWeb } from '../../web/build.ts';
import { newApp } from '#test/support/api.ts';

const signing = () => inject('signingUrl');

describe('the console on the local signing host', () => {
  it('answers every /app/ path with the console page and its strict policy naming the identity provider', async () => {
    await buildWeb({ ifStale: true, quiet: true });
    const page = await fetch(`${signing()}/app/envelopes/some-id?event=sent`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('id="console"');
    const policy = page.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("style-src 'self';");
    expect(policy).toContain(new URL(inject('oidcIssuer')).origin);
    expect(policy).not.toContain('unsafe');
    const bare = await fetch(`${signing()}/app`, { redirect: 'manual' });
    expect([bare.status, bare.headers.get('location')]).toEqual([302, '/app/']);
    // The signing page keeps its own policy
    expect((await fetch(`${signing()}/sign/x`)).headers.get('content-security-policy')).not.toContain(new URL(inject('oidcIssuer')).origin);
  });

  it('answers the console\'s API calls on its own origin', async () => {
    const { token } = await newApp('console page');
    const list = await fetch(`${signing()}/v1/envelopes?tenantId=acme`, { headers: { authorization: `Bearer ${token}` } });
    expect(list.status).toBe(200);
    expect(await list.json()).toMatchObject({ data: [], total: 0 });
  });
});
