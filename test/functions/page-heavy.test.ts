/**
 * The most pages an envelope and a template hold (five 2,000-page documents) on in-memory ports, whose repositories
 * refuse a record over DynamoDB's 400 KB item limit as the table does.
 */
import { describe, expect, it } from 'vitest';
import { DOCUMENTS, heavyEnvelope, heavyTemplate, PAGES } from '#test/support/page-heavy.ts';
import { memoryDeps } from '#test/support/memory-deps.ts';

const APP = 'app-heavy';
/** Far below the 400 KB item limit: the records hold no page. */
const SMALL = 40 * 1024;
const size = (record: unknown) => Buffer.byteLength(JSON.stringify(record));

describe('five 2,000-page documents on in-memory ports', () => {
  it('in one draft: every upload taken, a field on the last page of the fifth, sent, every page in the signing context', async () => {
    const deps = await memoryDeps();
    const { envelope, pagesShown } = await heavyEnvelope(deps, APP);
    expect(envelope.status).toBe('sent');
    expect(pagesShown).toEqual(Array.from({ length: DOCUMENTS }, () => PAGES));
    expect(size(await deps.envelopes.find(envelope.id))).toBeLessThan(SMALL);
  }, 300_000);

  it('in one template: every upload taken, a field on the last page of the fifth, an envelope sent from it', async () => {
    const deps = await memoryDeps();
    const { template, envelope } = await heavyTemplate(deps, APP);
    expect(template.documents.map((d) => d.pageCount)).toEqual(Array.from({ length: DOCUMENTS }, () => PAGES));
    expect(envelope).toMatchObject({ status: 'sent', fields: [{ page: PAGES, documentId: envelope.documents.at(-1)?.id }] });
    expect(size(template)).toBeLessThan(SMALL);
    expect(size(await deps.envelopes.find(envelope.id))).toBeLessThan(SMALL);
  }, 300_000);
});
