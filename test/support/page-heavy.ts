/**
 * The largest documents an envelope or template holds: five 2,000-page PDFs (tiny empty pages, cheap to build and
 * to parse), run through the use cases on whatever adapters the caller gives. What must hold: every upload is taken,
 * a field goes on the last page of the fifth, the draft sends, the signing context shows every page, and the
 * envelope and template records stay small (their pages are stored beside the PDFs).
 */
import { expect } from 'vitest';
import type { Envelope } from '#shared/kernel/model.ts';
import type { Template } from '#shared/templates/templates.ts';
import { createFromTemplate } from '#shared/templates/from-template-actions.ts';
import { addEnvelopeFields } from '#shared/envelopes/placement-actions.ts';
import { readSigningContext } from '#shared/signing/signing-actions.ts';
import { sendEnvelopeNow } from '#shared/envelopes/envelope-actions.ts';
import { addTemplateFields, createTemplate, readTemplate, uploadTemplateDocument } from '#shared/templates/template-actions.ts';
import { createEnvelope, uploadDocument } from '#shared/envelopes/upload-actions.ts';
import { parseWith } from '#shared/http/validation.ts';
import { CreateEnvelopeRequest } from '#shared/envelopes/envelope-schemas.ts';
import type { Deps } from '#shared/deps.ts';
import { makePdf } from './pdfs.ts';

export const DOCUMENTS = 5;
export const PAGES = 2000;
/** What the test PDFs' pages measure (points): a field of 10 x 10 at (1, 1) fits. */
const SIDE = 36;
const META = { ip: '198.51.100.9', userAgent: 'page-heavy' };

let pdf: Promise<Uint8Array> | undefined;
/** One 2,000-page PDF of tiny empty pages (about 26 KB), built once per test file. */
export const heavyPdf = () => (pdf ??= makePdf({ pages: PAGES, size: [SIDE, SIDE] }));

const tokenOf = (url: string | undefined) => url?.split('/').at(-1) ?? '';

/** A draft with five 2,000-page documents, a field on the last page of the fifth, sent; its signing context read. */
export async function heavyEnvelope(deps: Deps, appId: string): Promise<{ envelope: Envelope; pagesShown: number[] }> {
  const request = parseWith(CreateEnvelopeRequest, { tenantId: 'acme', subject: 'Heavy', signers: [{ name: 'Ana', email: 'ana@example.com', authMethod: 'none' }] });
  const draft = await createEnvelope(deps, appId, request, [], META);
  const bytes = await heavyPdf();
  for (let i = 1; i <= DOCUMENTS; i++) {
    expect(await uploadDocument(deps, appId, draft.id, { bytes, filename: `part-${String(i)}.pdf` }, META)).toMatchObject({ pageCount: PAGES, order: i });
  }
  const last = (await deps.envelopes.find(draft.id))?.documents.at(-1);
  const signerId = draft.signers[0]?.id ?? '';
  const placed = { signerId, documentId: last?.id ?? null, type: 'signature' as const, x: 1, y: 1, w: 10, h: 10, required: true };
  await expect(addEnvelopeFields(deps, appId, draft.id, { ...placed, page: PAGES + 1 }, META)).rejects.toMatchObject({ errors: { page: [expect.stringContaining(String(PAGES))] } });
  expect(await addEnvelopeFields(deps, appId, draft.id, { ...placed, page: PAGES }, META)).toMatchObject([{ page: PAGES, documentId: last?.id }]);
  const { envelope, signingUrls } = await sendEnvelopeNow(deps, appId, draft.id, null, META);
  const context = await readSigningContext(deps, tokenOf(signingUrls.get(signerId)), META);
  const pagesShown = context.envelope.documents.map((d) => context.pages.get(d.id)?.length ?? 0);
  return { envelope, pagesShown };
}

/** A template with five 2,000-page documents and a field on the last page of the fifth, and an envelope sent from it. */
export async function heavyTemplate(deps: Deps, appId: string): Promise<{ template: Template; envelope: Envelope }> {
  const created = await createTemplate(deps, appId, {
    tenantId: 'acme', name: 'Heavy', subject: 'Heavy', message: null, expiresInDays: null, roles: [{ role: 'client', routingOrder: 1, authMethod: 'none' }], fields: [],
  }, []);
  const bytes = await heavyPdf();
  for (let i = 1; i <= DOCUMENTS; i++) await uploadTemplateDocument(deps, appId, created.id, { bytes, filename: `part-${String(i)}.pdf` });
  const last = (await readTemplate(deps, appId, created.id)).documents.at(-1);
  const placed = { role: 'client', documentId: last?.id ?? null, type: 'signature' as const, x: 1, y: 1, w: 10, h: 10, required: true };
  await expect(addTemplateFields(deps, appId, created.id, { ...placed, page: PAGES + 1 })).rejects.toMatchObject({ errors: { page: [expect.stringContaining(String(PAGES))] } });
  expect(await addTemplateFields(deps, appId, created.id, { ...placed, page: PAGES })).toMatchObject([{ page: PAGES }]);
  const { envelope } = await createFromTemplate(deps, appId, {
    templateId: created.id, recipients: { client: { name: 'Ben', email: 'ben@example.com', phone: null } }, prefill: {}, subject: null,
    message: null, cc: [], reminders: null, send: true,
  }, META);
  return { template: await readTemplate(deps, appId, created.id), envelope };
}
