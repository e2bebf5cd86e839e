/**
 * Templates (decision 34) over HTTP: a template made once (multipart, fields bound to roles by coordinates and
 * anchors, labelled, prefilled, read-only), three envelopes from it (one sent in the same call) signed to completion;
 * the stepwise JSON create; listing, deletion, and another application seeing nothing.
 */
import { PDFDocument, rgb, StandardFonts } from 'pdf-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectErrorShape, newApp, outboxFor } from '#test/support/api.ts';
import type { EnvelopeBody } from '#test/support/envelopes.ts';
import { passGates, settle, signing, tokenOf, type ContextBody } from '#test/support/signing.ts';

let token: string;
beforeAll(async () => { token = (await newApp('templates')).token; });

const unique = (name: string) => `${name}.${String(Date.now())}.${String(Math.random()).slice(2, 8)}@example.com`;

async function nda(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([612, 792]);
  page.drawText('Mutual non-disclosure agreement', { x: 72, y: 720, size: 16, font });
  page.drawText('/employee/', { x: 72, y: 150, size: 10, font, color: rgb(1, 1, 1) });
  return doc.save();
}

interface TemplateBody {
  id: string;
  name: string;
  roles: { role: string; routingOrder: number }[];
  fields: { id: string; role: string; label: string | null; value: string | null; readOnly: boolean; page: number; x: number; y: number; documentId: string }[];
  documents: { id: string; name: string; pageCount: number; sha256: string }[];
}

function multipart(data: unknown, files: { name: string; bytes: Uint8Array }[]): FormData {
  const form = new FormData();
  form.append('data', JSON.stringify(data));
  for (const file of files) form.append('file', new Blob([file.bytes], { type: 'application/pdf' }), file.name);
  return form;
}

const templateData = {
  tenantId: 'tpl', name: 'Onboarding NDA', subject: 'Your NDA', expiresInDays: 14,
  roles: [{ role: 'employee', routingOrder: 1, authMethod: 'none' }, { role: 'manager', routingOrder: 2, authMethod: 'none' }],
  fields: [
    { role: 'employee', type: 'signature', anchor: { text: '/employee/', offsetY: 12 }, w: 180, h: 40, label: 'Employee signature' },
    { role: 'employee', type: 'text', page: 1, x: 72, y: 500, w: 250, h: 20, label: 'Start date' },
    { role: 'manager', type: 'text', page: 1, x: 72, y: 450, w: 250, h: 20, label: 'Department', value: 'Engineering', readOnly: true },
    { role: 'manager', type: 'signature', page: 1, x: 350, y: 150, w: 180, h: 40, label: 'Manager signature' },
  ],
};

async function signAll(envelopeId: string, addresses: string[]): Promise<void> {
  for (const address of addresses) {
    await settle();
    const link = /https?:\/\/\S+\/sign\/\S+/.exec((await outboxFor(address)).at(-1)?.text ?? '')?.[0];
    const linkToken = tokenOf(link);
    await passGates(linkToken, null);
    const context = (await signing<ContextBody>('GET', linkToken)).body;
    const values = context.fields.filter((f) => !f.readOnly).map((f) => ({ fieldId: f.id, textValue: f.type === 'text' ? '2026-12-01' : 'Signed Name' }));
    const signed = await signing('POST', linkToken, '/sign', { fields: values, fontLabel: 'Caveat' });
    expect(signed.status, JSON.stringify(signed.body)).toBe(200);
  }
  await settle();
  await expect.poll(async () => (await call<EnvelopeBody>('GET', `/v1/envelopes/${envelopeId}`, { token })).body.status).toBe('completed');
}

describe('a template made once, sent three times', () => {
  it('makes envelopes with copies of its documents, roles bound to recipients, prefills by label; all sign to completion', async () => {
    const created = await call<TemplateBody>('POST', '/v1/templates', { token, form: multipart(templateData, [{ name: 'nda.pdf', bytes: await nda() }]) });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const template = created.body;
    expect(template.documents.map((d) => d.name)).toEqual(['nda.pdf']);
    expect(template.fields.find((f) => f.label === 'Employee signature')).toMatchObject({ role: 'employee', page: 1, x: 72, y: 162 });
    expect((await call<TemplateBody>('GET', `/v1/templates/${template.id}`, { token })).body).toEqual(template);

    const made: { id: string; addresses: string[] }[] = [];
    for (const [i, send] of [false, false, true].entries()) {
      const [employee, manager] = [unique(`emp${String(i)}`), unique(`mgr${String(i)}`)];
      const res = await call<EnvelopeBody & { templateId: string; subject: string; fields: { label: string | null; value: string | null; documentId: string }[]; documents: { id: string; sha256: string }[] }>('POST', '/v1/envelopes', {
        token,
        json: {
          templateId: template.id, send, message: 'Welcome aboard',
          recipients: { employee: { name: `Employee ${String(i)}`, email: employee }, manager: { name: `Manager ${String(i)}`, email: manager } },
          prefill: { 'Start date': `2026-12-0${String(i + 1)}` },
          ...(i === 1 ? { subject: 'Custom subject' } : {}),
        },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body).toMatchObject({ templateId: template.id, status: send ? 'sent' : 'draft', subject: i === 1 ? 'Custom subject' : 'Your NDA' });
      expect(res.body.documents[0]?.sha256).toBe(template.documents[0]?.sha256);
      expect(res.body.documents[0]?.id).not.toBe(template.documents[0]?.id);
      expect(res.body.fields.find((f) => f.label === 'Start date')?.value).toBe(`2026-12-0${String(i + 1)}`);
      expect(res.body.signers.map((s) => [s.email, s.routingOrder])).toEqual([[employee, 1], [manager, 2]]);
      if (send) expect(tokenOf(res.body.signers[0]?.signingUrl)).toBeTruthy();
      else expect((await call('POST', `/v1/envelopes/${res.body.id}/send`, { token })).status).toBe(200);
      made.push({ id: res.body.id, addresses: [employee, manager] });
    }
    // Deleting the template changes no envelope: each has its own copy of the document.
    expect((await call('DELETE', `/v1/templates/${template.id}`, { token })).status).toBe(204);
    expect((await call('GET', `/v1/templates/${template.id}`, { token })).status).toBe(404);
    for (const envelope of made) await signAll(envelope.id, envelope.addresses);
    const sealed = await call('GET', `/v1/envelopes/${made[2]?.id ?? ''}/document?kind=sealed`, { token });
    expect(sealed.status).toBe(200);
  }, 180_000);
});

describe('template authoring and access', () => {
  it('builds a template in steps, lists newest first with a total, and refuses bad input with 4xx', async () => {
    const tenantId = `steps-${String(Date.now())}`;
    const json = { tenantId, name: 'Stepwise', roles: [{ role: 'client' }] };
    expect((await call('POST', '/v1/templates', { token, json: { ...json, fields: [templateData.fields[1]] } })).status).toBe(400);
    const dup = await call('POST', '/v1/templates', { token, json: { ...json, roles: [{ role: 'a' }, { role: 'a' }] } });
    expect(dup.status).toBe(400);
    const first = await call<TemplateBody>('POST', '/v1/templates', { token, json });
    expect(first.status).toBe(201);
    const id = first.body.id;
    const noDoc = await call('POST', '/v1/envelopes', { token, json: { templateId: id, recipients: { client: { name: 'C', email: unique('c') } } } });
    expect(noDoc.status).toBe(400);
    const upload = await call<{ documentId: string; name: string }>('POST', `/v1/templates/${id}/document?filename=terms.pdf`, { token, raw: { bytes: await nda(), contentType: 'application/pdf' } });
    expect(upload.status).toBe(201);
    expect(upload.body.name).toBe('terms.pdf');
    const anchored = await call<{ data: { role: string; y: number }[] }>('POST', `/v1/templates/${id}/fields`, { token, json: { role: 'client', type: 'signature', anchor: { text: '/employee/' }, w: 100, h: 30 } });
    expect(anchored.status, JSON.stringify(anchored.body)).toBe(201);
    expect(anchored.body.data).toMatchObject([{ role: 'client', y: 150 }]);
    expect((await call('POST', `/v1/templates/${id}/fields`, { token, json: { role: 'nobody', type: 'signature', page: 1, x: 1, y: 1, w: 10, h: 10 } })).status).toBe(400);
    expect((await call('POST', `/v1/templates/${id}/fields`, { token, json: { role: 'client', type: 'text', page: 2, x: 1, y: 1, w: 10, h: 10 } })).status).toBe(400);
    const second = await call<TemplateBody>('POST', '/v1/templates', { token, json: { ...json, name: 'Second' } });
    const list = await call<{ data: TemplateBody[]; total: number; page: number; pageSize: number }>('GET', `/v1/templates?tenantId=${tenantId}&pageSize=1`, { token });
    expect(list.body).toMatchObject({ total: 2, page: 1, pageSize: 1 });
    expect(list.body.data.map((t) => t.id)).toEqual([second.body.id]);
    expect((await call<{ data: TemplateBody[] }>('GET', `/v1/templates?tenantId=${tenantId}&page=2&pageSize=1`, { token })).body.data.map((t) => t.id)).toEqual([id]);
    expect((await call('GET', '/v1/templates', { token })).status).toBe(400);

    const missingRole = await call('POST', '/v1/envelopes', { token, json: { templateId: id, recipients: {} } });
    expect(missingRole.status).toBe(400);
    expect(missingRole.body).toMatchObject({ errors: { 'recipients.client': [expect.stringContaining('required') as unknown] } });
    const badLabel = await call('POST', '/v1/envelopes', { token, json: { templateId: id, recipients: { client: { name: 'C', email: unique('c') } }, prefill: { Nope: 'x' } } });
    expect(badLabel.status).toBe(400);
    const otherTenant = await call('POST', '/v1/envelopes', { token, json: { templateId: id, tenantId: 'elsewhere', recipients: { client: { name: 'C', email: unique('c') } } } });
    expect(otherTenant.status).toBe(400);

    const other = (await newApp('templates-other')).token;
    const foreign = await call('GET', `/v1/templates/${id}`, { token: other });
    expect(foreign.status).toBe(404);
    expectErrorShape(foreign.body, 'not_found', 404);
    expect((await call('POST', '/v1/envelopes', { token: other, json: { templateId: id, recipients: { client: { name: 'C', email: unique('c') } } } })).status).toBe(404);
    expect((await call('DELETE', `/v1/templates/${id}`, { token: other })).status).toBe(404);
    expect((await call<{ total: number }>('GET', `/v1/templates?tenantId=${tenantId}`, { token: other })).body.total).toBe(0);
  }, 60_000);
});
