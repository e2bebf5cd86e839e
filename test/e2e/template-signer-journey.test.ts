/**
 * One journey over HTTP through what a template can ask of a signer: a template with an attachment field, a
 * condition (`showIf`) and `allowReassign`; an envelope made from it and sent; the first person hands their place
 * over from their link; the new person adds a file, the conditional field is refused while hidden and required once
 * shown, and they sign. The sealed PDF embeds the file (pdfdetach) and its certificate lists name, size and SHA-256
 * (pdftotext).
 */
import { createHash } from 'node:crypto';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiUrl, call, newApp, outboxFor } from '#test/support/api.ts';
import type { EnvelopeBody } from '#test/support/envelopes.ts';
import { attach, detachAll, detachList, pngImage } from '#test/support/attachments.ts';
import { passGates, pngBase64, settle, signing, tokenOf } from '#test/support/signing.ts';
import { pdfsig, pdftotext, tempPdf } from '#test/support/validators.ts';

let token: string;
beforeAll(async () => { token = (await newApp('template journey')).token; });

const unique = (name: string) => `${name}.${String(Date.now())}.${String(Math.random()).slice(2, 8)}@example.com`;
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const linkIn = async (address: string) => tokenOf(/https?:\/\/\S+\/sign\/\S+/.exec((await outboxFor(address)).find((m) => m.text.includes('/sign/'))?.text ?? '')?.[0]);

async function lease(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage([612, 792]).drawText('Residential lease', { x: 72, y: 720, size: 16, font });
  return doc.save();
}

interface Context { fields: { id: string; type: string; label: string | null; showIf?: unknown; accept?: string[] }[]; allowReassign: boolean }

const template = {
  tenantId: 'journey', name: 'Lease with proof', subject: 'Your lease', allowReassign: true,
  roles: [{ role: 'tenant', routingOrder: 1, authMethod: 'none' }],
  fields: [
    { role: 'tenant', type: 'signature', page: 1, x: 72, y: 100, w: 180, h: 40, label: 'Tenant signature' },
    { role: 'tenant', type: 'checkbox', page: 1, x: 72, y: 600, w: 14, h: 14, label: 'Company', required: false },
    { role: 'tenant', type: 'text', page: 1, x: 100, y: 600, w: 200, h: 20, label: 'Company name', showIf: { label: 'Company', equals: 'true' } },
    { role: 'tenant', type: 'attachment', page: 1, x: 72, y: 300, w: 200, h: 30, label: 'Proof of address', accept: ['pdf', 'png'] },
  ],
};

describe('a template with an attachment, a condition and reassignment, from creation to the sealed PDF', () => {
  it('is handed over, filled in, signed and sealed with the file embedded and listed', async () => {
    const form = new FormData();
    form.append('data', JSON.stringify(template));
    form.append('file', new Blob([await lease()], { type: 'application/pdf' }), 'lease.pdf');
    const made = await call<{ id: string; allowReassign: boolean; fields: { type: string; showIf?: unknown; accept?: string[] }[] }>('POST', '/v1/templates', { token, form });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body.allowReassign).toBe(true);

    const [ana, carla] = [unique('ana'), unique('carla')];
    const created = await call<EnvelopeBody & { allowReassign: boolean }>('POST', '/v1/envelopes', { token, json: { templateId: made.body.id, send: true, recipients: { tenant: { name: 'Ana Silva', email: ana } } } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.allowReassign).toBe(true);
    const id = created.body.id;
    await settle();

    // Ana hands her place to Carla from her link, as the template allows
    const anaLink = await linkIn(ana);
    const offered = await signing<Context>('GET', anaLink);
    expect(offered.body.allowReassign).toBe(true);
    expect((await signing('POST', anaLink, '/reassign', { name: 'Carla Nunes', email: carla, reason: 'Carla rents it' })).status).toBe(200);
    await settle();
    expect((await signing('GET', anaLink)).body).toMatchObject({ reason: 'link_replaced' });

    const link = await linkIn(carla);
    await passGates(link, null);
    const context = (await signing<Context>('GET', link)).body;
    const field = (label: string) => context.fields.find((f) => f.label === label)?.id ?? '';
    expect(context.fields.find((f) => f.label === 'Company name')?.showIf).toEqual({ label: 'Company', equals: 'true' });
    expect(context.fields.find((f) => f.label === 'Proof of address')).toMatchObject({ type: 'attachment', accept: ['pdf', 'png'] });

    const png = pngImage(120, 80);
    const proof = await attach(link, field('Proof of address'), png, 'Council tax bill.png');
    expect(proof.status, JSON.stringify(proof.body)).toBe(201);
    const base = [
      { fieldId: field('Tenant signature'), signatureImageBase64: pngBase64 },
      { fieldId: field('Proof of address'), attachmentId: proof.body.id },
    ];
    // Unticked: the company's name is hidden, and a value for it refused
    const hidden = await signing('POST', link, '/sign', { fields: [...base, { fieldId: field('Company'), textValue: 'false' }, { fieldId: field('Company name'), textValue: 'ACME GmbH' }] });
    expect(hidden.status).toBe(400);
    expect(hidden.body).toMatchObject({ error: 'validation_error', reason: 'field_hidden' });
    // Ticked: it shows, and is required
    const missing = await signing('POST', link, '/sign', { fields: [...base, { fieldId: field('Company'), textValue: 'true' }] });
    expect(missing.status).toBe(400);
    expect(JSON.stringify(missing.body)).toContain('Company name');
    const signed = await signing('POST', link, '/sign', { fields: [...base, { fieldId: field('Company'), textValue: 'true' }, { fieldId: field('Company name'), textValue: 'ACME GmbH' }] });
    expect(signed.status, JSON.stringify(signed.body)).toBe(200);
    await settle();
    await expect.poll(async () => (await call<EnvelopeBody>('GET', `/v1/envelopes/${id}`, { token })).body.status).toBe('completed');

    const sealed = new Uint8Array(await (await fetch(`${apiUrl()}/v1/envelopes/${id}/document?kind=sealed`, { headers: { authorization: `Bearer ${token}` } })).arrayBuffer());
    const file = tempPdf(sealed);
    expect(detachList(file)).toEqual(['Council tax bill.png']);
    expect(sha256(detachAll(file).get('Council tax bill.png') ?? new Uint8Array())).toBe(sha256(png));
    expect(pdfsig(file)).toMatch(/Signature is Valid/);
    const text = pdftotext(file).replace(/\s+/g, ' ');
    expect(text).toContain('Attachments (1)');
    expect(text).toContain('Council tax bill.png');
    expect(text).toContain(`${png.byteLength.toLocaleString('en-US')} bytes`);
    expect(text).toContain(sha256(png));
    expect(text).toContain('ACME GmbH');
  }, 180_000);
});
