/**
 * Changing a template through PATCH and PUT (memory ports): a role renamed keeps its fields, a role left out takes
 * its fields with it, a rename that names no role is refused; a field replaced keeps the condition, validation and
 * attachment settings it is given, checked as at create.
 */
import { describe, expect, it } from 'vitest';
import { ValidationError } from '#shared/kernel/errors.ts';
import { pagesBlob } from '#shared/envelopes/page-actions.ts';
import { replaceTemplateField, updateTemplate } from '#shared/templates/template-edit-actions.ts';
import type { Template, TemplateField } from '#shared/templates/templates.ts';
import { letterDocument, letterPages } from '#test/support/domain.ts';
import { memoryDeps } from '#test/support/memory-deps.ts';

const document = letterDocument(1);
const field = (role: string, label: string): TemplateField => ({
  id: crypto.randomUUID(), role, documentId: document.id, type: 'text', page: 1, x: 72, y: 72, w: 100, h: 20, required: true,
  origin: 'bottom-left', label, value: null, readOnly: false,
});

async function stored() {
  const deps = await memoryDeps();
  const template: Template = {
    id: crypto.randomUUID(), appId: 'app', tenantId: 'acme', name: 'NDA', subject: null, message: null, expiresInDays: null,
    fieldOrigin: 'bottom-left', createdAt: '2026-01-01T00:00:00.000Z', version: 1, documents: [document],
    roles: [{ role: 'Client', routingOrder: 1, authMethod: 'none' }, { role: 'Witness', routingOrder: 2, authMethod: 'none' }],
    fields: [field('Client', 'Company'), field('Witness', 'Reference'), field('Client', 'Title')],
  };
  await deps.templates.create(template);
  const stagedPages = pagesBlob(document.pagesKey ?? '', letterPages(document).get(document.id) ?? []);
  await deps.blobs.put(stagedPages.key, stagedPages.bytes, stagedPages.contentType);
  return { deps, template };
}

describe('renaming a template role', () => {
  it('keeps the renamed role\'s fields, bound to the new name, and stores them', async () => {
    const { deps, template } = await stored();
    const updated = await updateTemplate(deps, 'app', template.id, {
      roles: [{ role: 'Buyer', routingOrder: 1, authMethod: 'none', renamedFrom: 'Client' }, { role: 'Witness', routingOrder: 2, authMethod: 'none' }],
    });
    expect(updated.roles.map((r) => r.role)).toEqual(['Buyer', 'Witness']);
    expect(updated.roles[0]).not.toHaveProperty('renamedFrom');
    expect(updated.fields.map((f) => [f.role, f.label])).toEqual([['Buyer', 'Company'], ['Witness', 'Reference'], ['Buyer', 'Title']]);
    const read = await deps.templates.get('app', template.id);
    expect(read?.fields.map((f) => f.role)).toEqual(['Buyer', 'Witness', 'Buyer']);
  });

  it('two roles may swap names, each keeping its own fields', async () => {
    const { deps, template } = await stored();
    const updated = await updateTemplate(deps, 'app', template.id, {
      roles: [{ role: 'Witness', routingOrder: 1, authMethod: 'none', renamedFrom: 'Client' }, { role: 'Client', routingOrder: 2, authMethod: 'none', renamedFrom: 'Witness' }],
    });
    expect(updated.fields.map((f) => [f.role, f.label])).toEqual([['Witness', 'Company'], ['Client', 'Reference'], ['Witness', 'Title']]);
  });

  it('a role left out still takes its fields with it', async () => {
    const { deps, template } = await stored();
    const updated = await updateTemplate(deps, 'app', template.id, { roles: [{ role: 'Witness', routingOrder: 1, authMethod: 'none' }] });
    expect(updated.fields.map((f) => f.label)).toEqual(['Reference']);
  });

  it('a rename from a role the template lacks, or from one role twice, is refused naming the entry', async () => {
    const { deps, template } = await stored();
    const refused = async (roles: Parameters<typeof updateTemplate>[3]['roles']) => {
      const error = await updateTemplate(deps, 'app', template.id, { roles }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ValidationError);
      return (error as ValidationError).errors;
    };
    expect(await refused([{ role: 'Buyer', routingOrder: 1, authMethod: 'none', renamedFrom: 'Stranger' }])).toHaveProperty(['roles[0].renamedFrom']);
    expect(await refused([
      { role: 'Buyer', routingOrder: 1, authMethod: 'none', renamedFrom: 'Client' }, { role: 'Seller', routingOrder: 2, authMethod: 'none', renamedFrom: 'Client' },
    ])).toHaveProperty(['roles[1].renamedFrom']);
    expect((await deps.templates.get('app', template.id))?.fields).toHaveLength(3);
  });
});

describe('replacing a template field', () => {
  it('keeps its condition, validation and attachment settings, and refuses a condition naming no field', async () => {
    const { deps, template } = await stored();
    const [company, reference] = template.fields;
    if (!company || !reference) throw new Error('no fields');
    const replaced = await replaceTemplateField(deps, 'app', template.id, reference.id, {
      ...reference, documentId: null, showIf: { label: 'Company', notEmpty: true }, validation: { format: 'email' },
    });
    expect(replaced).toMatchObject({ showIf: { label: 'Company', notEmpty: true }, validation: { format: 'email' } });
    expect((await deps.templates.get('app', template.id))?.fields[1]).toMatchObject({ showIf: { label: 'Company', notEmpty: true }, validation: { format: 'email' } });
    const attachment = await replaceTemplateField(deps, 'app', template.id, company.id, { ...company, type: 'attachment', documentId: null, accept: ['png'], maxBytes: 5000 });
    expect(attachment).toMatchObject({ accept: ['png'], maxBytes: 5000 });
    const error = await replaceTemplateField(deps, 'app', template.id, company.id, { ...company, documentId: null, showIf: { label: 'Nobody' } }).catch((e: unknown) => e);
    expect((error as ValidationError).errors).toHaveProperty(['showIf.label']);
  });
});
