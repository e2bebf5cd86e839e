/**
 * What a signed-in console user does over HTTP on the local stack: a bulk send names them as every envelope's
 * sender (an API client's names nobody); an invitation comes in the language asked for, and its password signs in.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { call, newApp } from '#test/support/api.ts';
import { makePdf } from '#test/support/pdfs.ts';
import { settle } from '#test/support/signing.ts';
import { signInWithPassword } from '#test/support/oidc-login.ts';

interface Mail { to: string; subject: string | null; text: string; html: string | null }
interface BulkBody { id: string; status: string; sent: number }
interface BulkEnvelopes { data: { row: number; envelopeId: string }[] }

const unique = (name: string) => `${name}-${randomUUID().slice(0, 8)}@example.com`;
const mails = async (to: string) => (await call<Mail[]>('GET', `/_local/outbox?to=${encodeURIComponent(to)}`)).body;

let token: string;
beforeAll(async () => { token = (await newApp('console user flows')).token; });

/** Invites a console user and signs them in at the local provider with the invitation's password. */
async function signedIn(role: 'admin' | 'sender', name: string, locale?: string): Promise<{ email: string; accessToken: string }> {
  const email = unique(name.split(' ')[0]?.toLowerCase() ?? 'user');
  expect((await call('POST', '/v1/console/users', { token, json: { email, name, role, locale } })).status).toBe(201);
  const password = /(?:Temporary password|Vorläufiges Passwort): (\S+)/.exec((await mails(email)).at(-1)?.text ?? '')?.[1] ?? '';
  const { accessToken } = await signInWithPassword({
    issuer: inject('oidcIssuer'), clientId: inject('oidcClientId'), redirectUri: `${inject('signingUrl')}/app/callback`, email, password,
  });
  return { email, accessToken };
}

async function template(as: string, tenantId: string): Promise<string> {
  const form = new FormData();
  form.append('data', JSON.stringify({
    tenantId, name: 'Bulk NDA', subject: 'Please sign the NDA', roles: [{ role: 'client', authMethod: 'none' }],
    fields: [{ role: 'client', type: 'signature', page: 1, x: 72, y: 72, w: 180, h: 40 }],
  }));
  form.append('file', new Blob([await makePdf()], { type: 'application/pdf' }), 'nda.pdf');
  const created = await call<{ id: string }>('POST', '/v1/templates', { token: as, form });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.id;
}

/** The batch's envelopes' senders, once the batch is done. */
async function sendersOf(as: string, templateId: string, rows: number): Promise<unknown[]> {
  const csv = `client.name,client.email\n${Array.from({ length: rows }, (_, i) => `Client ${String(i)},${unique('client')}`).join('\n')}\n`;
  const started = await call<BulkBody>('POST', `/v1/templates/${templateId}/bulk-send`, { token: as, raw: { bytes: new TextEncoder().encode(csv), contentType: 'text/csv' } });
  expect(started.status, JSON.stringify(started.body)).toBe(202);
  await settle();
  await expect.poll(async () => (await call<BulkBody>('GET', `/v1/bulk-sends/${started.body.id}`, { token: as })).body.status, { timeout: 60_000 }).toMatch(/^completed/);
  const made = (await call<BulkEnvelopes>('GET', `/v1/bulk-sends/${started.body.id}/envelopes`, { token: as })).body.data;
  expect(made).toHaveLength(rows);
  return Promise.all(made.map(async (r) => (await call<{ sender?: unknown }>('GET', `/v1/envelopes/${r.envelopeId}`, { token: as })).body.sender ?? null));
}

describe('a console user', () => {
  it('is the sender of every envelope of a bulk send they start; an API client\'s batch names nobody', async () => {
    const tenantId = `bulk-user-${randomUUID().slice(0, 8)}`;
    const jane = await signedIn('sender', 'Jane Console');
    const templateId = await template(jane.accessToken, tenantId);
    expect(await sendersOf(jane.accessToken, templateId, 2)).toEqual([{ name: 'Jane Console', email: jane.email }, { name: 'Jane Console', email: jane.email }]);
    expect(await sendersOf(token, templateId, 1)).toEqual([null]);
  });

  it('is invited in German when the invitation asks for it, and signs in with its password', async () => {
    const erika = await signedIn('sender', 'Erika Mustermann', 'de');
    const mail = (await mails(erika.email)).at(-1);
    expect(mail?.subject).toBe('Ihre Einladung zu console user flows');
    expect(mail?.text).toMatch(/^Hallo Erika Mustermann,\n\nSie wurden zur Versandkonsole von console user flows eingeladen\.\n\nMelden Sie sich hier an: http:\/\/[^\s]+\/app\/\n/);
    expect(mail?.html).toContain('Wählen Sie bei der ersten Anmeldung Ihr eigenes Passwort.');
    const me = await call<{ email: string; role: string }>('GET', '/v1/console/me', { token: erika.accessToken });
    expect([me.status, me.body.email, me.body.role]).toEqual([200, erika.email, 'sender']);
    const refused = await call('POST', '/v1/console/users', { token, json: { email: unique('x'), role: 'sender', locale: 'xx' } });
    expect(refused.status).toBe(400);
  });
});
