/**
 * Conditional and validated fields over HTTP: the refusals at create, the refusals at signing (a value for a hidden
 * field, a value that does not fit its validation), and the sealed PDF drawing shown fields only. Templates carry both.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectErrorShape, newApp } from '#test/support/api.ts';
import { createMultipart, sigField, signer, type EnvelopeBody, type Json } from '#test/support/envelopes.ts';
import { makePdf } from '#test/support/pdfs.ts';
import { passGates, pngBase64, settle, signing, tokenOf } from '#test/support/signing.ts';
import { pdftotext, tempPdf } from '#test/support/validators.ts';

let token: string;
beforeAll(async () => { token = (await newApp('conditional-fields')).token; });

const unique = (name: string) => `${name}.${String(Date.now())}.${String(Math.random()).slice(2, 8)}@example.com`;
const text = (label: string, y: number, extra: Json = {}) => ({ signerIndex: 0, type: 'text', page: 1, x: 72, y, w: 300, h: 20, label, ...extra });
const box = (label: string, y: number, extra: Json = {}) => ({ signerIndex: 0, type: 'checkbox', page: 1, x: 400, y, w: 14, h: 14, label, required: false, ...extra });

async function refused(fields: Json[]): Promise<{ status: number; body: Json & { details: Record<string, string[]> | null } }> {
  const res = await createMultipart(token, { tenantId: 'cond', signers: [signer(unique('ana'), 1, { authMethod: 'none' })], fields: [sigField(0), ...fields] });
  return res as unknown as { status: number; body: Json & { details: Record<string, string[]> | null } };
}

describe('the rules at create', () => {
  it('refuses an unsafe pattern (backreference, lookaround) and a pattern over 200 characters', async () => {
    for (const pattern of ['(a)\\1', '(?=x)x', 'a'.repeat(201)]) {
      const res = await refused([text('Code', 300, { validation: { pattern } })]);
      expect(res.status, pattern).toBe(400);
      expectErrorShape(res.body, 'validation_error', 400);
      expect(Object.keys(res.body.details ?? {}).join(), pattern).toMatch(/fields\[1\]\.validation(\.pattern)?/);
    }
  });

  it('refuses a condition naming a label on two fields, an unknown label, and a cycle', async () => {
    const duplicate = await refused([text('Name', 300), text('Name', 340), text('Other', 380, { showIf: { label: 'Name', notEmpty: true } })]);
    expect(duplicate.status).toBe(400);
    expect(duplicate.body.details?.['fields[3].showIf.label']?.[0]).toMatch(/must be unique/);
    const unknown = await refused([text('Other', 380, { showIf: { label: 'Nobody', notEmpty: true } })]);
    expect(unknown.body.details?.['fields[1].showIf.label']?.[0]).toMatch(/names no field/);
    const cycle = await refused([text('A', 300, { showIf: { label: 'B' } }), text('B', 340, { showIf: { label: 'A' } })]);
    expect(cycle.status).toBe(400);
    expect(Object.keys(cycle.body.details ?? {}).sort()).toEqual(['fields[1].showIf', 'fields[2].showIf']);
  });

  it('refuses a validation on a field that is not text', async () => {
    const res = await refused([box('Agree', 300, { validation: { format: 'email' } })]);
    expect(res.body.details).toHaveProperty(['fields[1].validation']);
  });
});

describe('signing with conditions and validation', () => {
  it('refuses a value for a hidden field (field_hidden) and a value that does not fit; seals shown fields only', async () => {
    const email = unique('cond');
    const created = await createMultipart(token, {
      tenantId: 'cond', subject: 'Conditional', signers: [signer(email, 1, { authMethod: 'none' })],
      fields: [
        sigField(0),
        box('Company', 600),
        text('Company name', 560, { showIf: { label: 'Company', equals: 'true' } }),
        text('Private note', 520, { showIf: { label: 'Company', equals: 'false' }, required: false }),
        text('Hidden prefill', 480, { showIf: { label: 'Company', equals: 'false' }, value: 'PREFILL-NOT-SEALED', required: false }),
        text('Contact email', 440, { validation: { format: 'email' } }),
        text('Order code', 400, { validation: { pattern: '[A-Z]{2}-\\d{4}' } }),
      ],
    }, await makePdf({ pages: 1, size: [612, 792] }));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const fields = (created.body as EnvelopeBody & { fields: { label: string | null; showIf: unknown; validation: unknown }[] }).fields;
    expect(fields.find((f) => f.label === 'Company name')).toMatchObject({ showIf: { label: 'Company', equals: 'true' }, validation: null });
    expect(fields.find((f) => f.label === 'Order code')).toMatchObject({ validation: { pattern: '[A-Z]{2}-\\d{4}' }, showIf: null });
    const sent = await call<EnvelopeBody>('POST', `/v1/envelopes/${created.body.id}/send`, { token });
    const link = tokenOf(sent.body.signers[0]?.signingUrl);
    await passGates(link, null);
    const context = await signing<{ fields: { id: string; label: string | null; showIf: unknown }[] }>('GET', link);
    expect(context.body.fields.find((f) => f.label === 'Company name')?.showIf).toEqual({ label: 'Company', equals: 'true' });
    const id = (label: string) => context.body.fields.find((f) => f.label === label)?.id ?? '';
    const sigId = context.body.fields.find((f) => f.label === null)?.id ?? '';
    const good = [
      { fieldId: sigId, signatureImageBase64: pngBase64 }, { fieldId: id('Company'), textValue: 'true' }, { fieldId: id('Company name'), textValue: 'Acme Holdings' },
      { fieldId: id('Contact email'), textValue: 'ops@acme.example' }, { fieldId: id('Order code'), textValue: 'AB-1234' },
    ];

    const hidden = await signing('POST', link, '/sign', { fields: [...good, { fieldId: id('Private note'), textValue: 'PRIVATE-NOT-SEALED' }] });
    expect(hidden.status).toBe(400);
    expect(hidden.body).toMatchObject({ error: 'validation_error', reason: 'field_hidden' });
    expect((hidden.body.details as Record<string, string[]>)['fields[5].fieldId']?.[0]).toMatch(/hidden/);

    const shownButEmpty = await signing('POST', link, '/sign', { fields: good.filter((g) => g.fieldId !== id('Company name')) });
    expect(shownButEmpty.status).toBe(400);
    expect(JSON.stringify(shownButEmpty.body.details)).toContain('Company name');

    const badEmail = await signing('POST', link, '/sign', { fields: good.map((g) => (g.fieldId === id('Contact email') ? { ...g, textValue: 'not-an-email' } : g)) });
    expect(badEmail.status).toBe(400);
    expect((badEmail.body.details as Record<string, string[]>)['fields[3]']).toEqual(['"Contact email" must be an email address']);
    const badCode = await signing('POST', link, '/sign', { fields: good.map((g) => (g.fieldId === id('Order code') ? { ...g, textValue: 'ab-12' } : g)) });
    expect((badCode.body.details as Record<string, string[]>)['fields[4]']?.[0]).toMatch(/"Order code" does not match/);

    const signed = await signing('POST', link, '/sign', { fields: good });
    expect(signed.status, JSON.stringify(signed.body)).toBe(200);
    await settle();
    const done = await call<EnvelopeBody>('GET', `/v1/envelopes/${created.body.id}`, { token });
    expect(done.body.status).toBe('completed');
    const sealed = await call('GET', `/v1/envelopes/${created.body.id}/document?kind=sealed`, { token });
    const pdfText = pdftotext(tempPdf(sealed.bytes));
    expect(pdfText).toContain('Acme Holdings');
    expect(pdfText).toContain('AB-1234');
    expect(pdfText).not.toContain('PREFILL-NOT-SEALED');
    expect(pdfText).not.toContain('PRIVATE-NOT-SEALED');
  });

  it('a field shown by an unticked box: the prefill of the shown field is sealed, the hidden one is not drawn', async () => {
    const created = await createMultipart(token, {
      tenantId: 'cond', signers: [signer(unique('ben'), 1, { authMethod: 'none' })],
      fields: [
        sigField(0), box('Company', 600),
        text('Personal id', 560, { showIf: { label: 'Company', equals: 'false' }, value: 'SHOWN-PREFILL' }),
        text('Company name', 520, { showIf: { label: 'Company', notEmpty: true }, value: 'HIDDEN-PREFILL' }),
      ],
    }, await makePdf({ pages: 1, size: [612, 792] }));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const sent = await call<EnvelopeBody>('POST', `/v1/envelopes/${created.body.id}/send`, { token });
    const link = tokenOf(sent.body.signers[0]?.signingUrl);
    await passGates(link, null);
    const context = await signing<{ fields: { id: string; type: string }[] }>('GET', link);
    const sig = context.body.fields.find((f) => f.type === 'signature')?.id;
    const boxId = context.body.fields.find((f) => f.type === 'checkbox')?.id;
    const signed = await signing('POST', link, '/sign', { fields: [{ fieldId: sig, signatureImageBase64: pngBase64 }, { fieldId: boxId, textValue: 'false' }] });
    expect(signed.status, JSON.stringify(signed.body)).toBe(200);
    await settle();
    const sealed = await call('GET', `/v1/envelopes/${created.body.id}/document?kind=sealed`, { token });
    const pdfText = pdftotext(tempPdf(sealed.bytes));
    expect(pdfText).toContain('SHOWN-PREFILL');
    expect(pdfText).not.toContain('HIDDEN-PREFILL');
  });
});

describe('templates carry conditions and validation', () => {
  it('keeps showIf, validation and allowReassign, and refuses a cycle', async () => {
    const pdf = await makePdf({ pages: 1, size: [612, 792] });
    const form = (fields: Json[]) => {
      const data = new FormData();
      data.append('data', JSON.stringify({ tenantId: 'cond', name: 'Conditional', roles: [{ role: 'client', routingOrder: 1 }], allowReassign: true, fields }));
      data.append('file', new Blob([pdf], { type: 'application/pdf' }), 'form.pdf');
      return data;
    };
    const field = (label: string, y: number, extra: Json = {}) => ({ role: 'client', type: 'text', page: 1, x: 72, y, w: 200, h: 20, label, ...extra });
    const made = await call<{ id: string; allowReassign: boolean; fields: { label: string; showIf: unknown; validation: unknown }[] }>('POST', '/v1/templates', {
      token, form: form([{ role: 'client', type: 'signature', page: 1, x: 72, y: 72, w: 180, h: 40 }, field('Kind', 600), field('Detail', 560, { showIf: { label: 'Kind', equals: 'other' }, validation: { maxLength: 20 } })]),
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body.allowReassign).toBe(true);
    expect(made.body.fields.find((f) => f.label === 'Detail')).toMatchObject({ showIf: { label: 'Kind', equals: 'other' }, validation: { maxLength: 20 } });
    const envelope = await call<{ allowReassign: boolean; fields: { label: string | null; showIf: unknown }[] }>('POST', '/v1/envelopes', {
      token, json: { tenantId: 'cond', templateId: made.body.id, recipients: { client: { name: 'Cy', email: unique('cy') } } },
    });
    expect(envelope.status, JSON.stringify(envelope.body)).toBe(201);
    expect(envelope.body.allowReassign).toBe(true);
    expect(envelope.body.fields.find((f) => f.label === 'Detail')?.showIf).toEqual({ label: 'Kind', equals: 'other' });
    const cycle = await call('POST', '/v1/templates', { token, form: form([field('A', 600, { showIf: { label: 'B' } }), field('B', 560, { showIf: { label: 'A' } })]) });
    expect(cycle.status).toBe(400);
  });
});
