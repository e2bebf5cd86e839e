import { describe, expect, it } from 'vitest';
import { bulkEnvelopeId, bulkStatus, chunksOf, csvRows } from '#shared/templates/bulk-send.ts';
import { sendEnvelope } from '#shared/envelopes/envelope.ts';
import { ValidationError } from '#shared/kernel/errors.ts';
import { assertTemplate, bindRoles, envelopeFromTemplate, prefillByLabel, type Template, type TemplateField } from '#shared/templates/templates.ts';
import { errorsOf, letterDocument, letterPages, testCtx, withPages } from '#test/support/domain.ts';

const document = letterDocument(2);
const field = (role: string, extra: Partial<TemplateField> = {}): TemplateField => ({
  id: crypto.randomUUID(), role, documentId: document.id, type: 'signature', page: 1, x: 72, y: 72, w: 100, h: 30, required: true,
  origin: 'bottom-left', label: null, value: null, readOnly: false, ...extra,
});

const template: Template = {
  id: '0190f5d2-0000-7000-8000-0000000000bb', appId: 'app', tenantId: 'acme', name: 'NDA', subject: 'NDA', message: null, expiresInDays: null,
  fieldOrigin: 'bottom-left', createdAt: '2026-01-01T00:00:00.000Z', version: 1, documents: [document],
  roles: [{ role: 'client', routingOrder: 1, authMethod: 'none' }, { role: 'witness', routingOrder: 2, authMethod: 'sms_otp' }],
  fields: [
    field('client'), field('witness', { page: 2 }),
    field('client', { type: 'text', y: 300, label: 'Company', value: 'Default Ltd' }),
    field('client', { type: 'text', y: 400, label: 'Company' }),
    field('witness', { type: 'text', y: 500, label: 'Reference', value: 'R-1', readOnly: true }),
  ],
};


const client = { name: 'Ana', email: 'ana@example.com', phone: null };
const witness = { name: 'Ben', email: 'ben@example.com', phone: '+14155550100' };

describe('role binding', () => {
  it('makes one signer per role, in the template\'s order, with the role\'s routing order and auth method unless the recipient overrides it', () => {
    expect(bindRoles(template, { witness, client: { ...client, authMethod: 'email_otp' } })).toEqual([
      { name: 'Ana', email: 'ana@example.com', phone: null, routingOrder: 1, authMethod: 'email_otp' },
      { name: 'Ben', email: 'ben@example.com', phone: '+14155550100', routingOrder: 2, authMethod: 'sms_otp' },
    ]);
  });

  it('names a missing role, an unknown one, and a phone an SMS role needs', () => {
    expect(Object.keys(errorsOf(() => bindRoles(template, { client, stranger: client })))).toEqual(['recipients.stranger', 'recipients.witness']);
    expect(errorsOf(() => bindRoles(template, { client, witness: { ...witness, phone: null } }))).toHaveProperty(['recipients.witness.phone']);
  });

  it('binds every field to the signer made from its role', () => {
    const change = envelopeFromTemplate(template, { recipients: { client, witness }, prefill: {}, subject: null }, {
      id: '0190f5d2-0000-7000-8000-0000000000cc', appId: 'app', tenantId: 'acme', subject: null, expiresInDays: 7, retentionDays: 30, ...withPages({ ...document, id: crypto.randomUUID() }),
    }, testCtx());
    const { signers, fields, documents } = change.after;
    const emailOf = (signerId: string) => signers.find((s) => s.id === signerId)?.email;
    expect(fields.map((f) => emailOf(f.signerId))).toEqual(['ana@example.com', 'ben@example.com', 'ana@example.com', 'ana@example.com', 'ben@example.com']);
    expect(fields.every((f) => f.documentId === documents[0]?.id)).toBe(true);
    expect(change.after).toMatchObject({ templateId: template.id, subject: 'NDA', status: 'draft' });
  });
});

describe('a draft made from a template', () => {
  it('keeps the template\'s message for a later send that gives none, and takes the one a send gives', () => {
    const change = envelopeFromTemplate({ ...template, fields: [field('client'), field('witness')] }, { recipients: { client, witness }, prefill: {}, subject: null }, {
      id: '0190f5d2-0000-7000-8000-0000000000ff', appId: 'app', tenantId: 'acme', subject: null, expiresInDays: 7, retentionDays: 30, ...withPages(document),
    }, testCtx());
    const draft = { ...change.after, message: 'From the template' };
    expect(sendEnvelope(draft, null, testCtx()).change.after.message).toBe('From the template');
    expect(sendEnvelope(draft, 'Given at send', testCtx()).change.after.message).toBe('Given at send');
  });
});

describe('prefill by label', () => {
  it('gives the value to every field with the label, keeps other prefills, and may replace a read-only value', () => {
    const filled = prefillByLabel(template.fields, { Company: 'ACME, Inc.', Reference: 'R-2' });
    expect(filled.map((f) => f.value)).toEqual([null, null, 'ACME, Inc.', 'ACME, Inc.', 'R-2']);
    expect(prefillByLabel(template.fields, {}).map((f) => f.value)).toEqual([null, null, 'Default Ltd', null, 'R-1']);
  });

  it('refuses a label no field has', () => {
    expect(errorsOf(() => prefillByLabel(template.fields, { Nope: 'x' }))).toEqual({ 'prefill.Nope': ['is not the label of a field of this template'] });
  });

  it('holds prefills to the field rules when the envelope is made (a checkbox takes true or false)', () => {
    const withBox = { ...template, fields: [...template.fields, field('client', { type: 'checkbox', y: 600, label: 'Agree' })] };
    expect(() => envelopeFromTemplate(withBox, { recipients: { client, witness }, prefill: { Agree: 'maybe' }, subject: null }, {
      id: '0190f5d2-0000-7000-8000-0000000000dd', appId: 'app', tenantId: 'acme', subject: null, expiresInDays: 7, retentionDays: 30, ...withPages(document),
    }, testCtx())).toThrow(ValidationError);
  });
});

describe('a template as a whole', () => {
  it('refuses duplicate roles and fields on no role or outside the page', () => {
    expect(Object.keys(errorsOf(() => { assertTemplate({ ...template, roles: [...template.roles, template.roles[0]!] }, letterPages(document)); }))).toEqual(['roles[2].role']);
    expect(Object.keys(errorsOf(() => { assertTemplate({ ...template, fields: [field('nobody'), field('client', { page: 3 })] }, letterPages(document)); }))).toEqual(['fields[0].role', 'fields[1].page']);
  });
});

describe('CSV rows', () => {
  it('maps role and prefill columns, keeps quoted commas, quotes and line breaks, and leaves empty cells out', () => {
    const csv = 'client.name,client.email,witness.phone,"prefill.Company, Inc.",subject\r\n'
      + '"Silva, Ana",ana@example.com,,"ACME, ""Inc.""",Hello\r\n'
      + 'Ben,ben@example.com,+14155550100,"two\nlines",\r\n';
    expect(csvRows(`\uFEFF${csv}`).rows).toEqual([
      { recipients: { client: { name: 'Silva, Ana', email: 'ana@example.com' } }, prefill: { 'Company, Inc.': 'ACME, "Inc."' }, subject: 'Hello' },
      { recipients: { client: { name: 'Ben', email: 'ben@example.com' }, witness: { phone: '+14155550100' } }, prefill: { 'Company, Inc.': 'two\nlines' } },
    ]);
  });

  it('refuses an unknown column, a row of the wrong width, unbalanced quotes and more than 1,000 rows', () => {
    expect(errorsOf(() => csvRows('client.name,age\nA,3'))).toHaveProperty(['header[1]']);
    expect(errorsOf(() => csvRows('client.name,client.email\nA,b,c'))).toHaveProperty(['body']);
    expect(errorsOf(() => csvRows('client.name\n"A'))).toHaveProperty(['body']);
    expect(errorsOf(() => csvRows(['client.name', ...Array.from({ length: 1001 }, () => 'A')].join('\n')))).toHaveProperty(['rows']);
  });
});

describe('bulk rows', () => {
  it('derive the same UUID for the same batch and row, and a different one otherwise', () => {
    const batch = '0190f5d2-0000-7000-8000-0000000000ee';
    expect(bulkEnvelopeId(batch, 1)).toBe(bulkEnvelopeId(batch, 1));
    expect(bulkEnvelopeId(batch, 1)).not.toBe(bulkEnvelopeId(batch, 2));
    expect(bulkEnvelopeId(batch, 7)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('are chunked in order, and the status follows the counts', () => {
    expect(chunksOf(Array.from({ length: 45 }, (_, i) => ({ i }))).map((c) => [c.first, c.rows.length])).toEqual([[1, 20], [21, 20], [41, 5]]);
    expect([bulkStatus(3, 0, 0), bulkStatus(3, 1, 0), bulkStatus(3, 3, 0), bulkStatus(3, 2, 1)]).toEqual(['queued', 'running', 'completed', 'completed_with_errors']);
  });
});
