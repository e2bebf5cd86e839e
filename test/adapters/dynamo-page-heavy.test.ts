/**
 * The most pages an envelope and a template hold (five 2,000-page documents) on DynamoDB Local, which refuses an item
 * over 400 KB as DynamoDB does: the stored envelope and template items are read raw and measured.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, describe, expect, it } from 'vitest';
import { DynamoEnvelopeRepository } from '#shared/adapters/aws/dynamo-envelope-repository.ts';
import { DynamoTemplateRepository } from '#shared/adapters/aws/dynamo-template-repository.ts';
import { DynamoTenantRepository } from '#shared/adapters/aws/dynamo-tenant-repository.ts';
import { DynamoUsageRepository } from '#shared/adapters/aws/dynamo-usage-repository.ts';
import { dynamoTables } from '#test/support/dynamo-tables.ts';
import { memoryDeps } from '#test/support/memory-deps.ts';
import { DOCUMENTS, heavyEnvelope, heavyTemplate, PAGES } from '#test/support/page-heavy.ts';

const APP = 'app-heavy';
/** Far below the 400 KB item limit: the items hold no page. */
const SMALL = 40 * 1024;
const tables = dynamoTables('page-heavy');
afterAll(tables.drop);

/** The use cases on the DynamoDB adapters (blobs in memory), and the raw size of an item. */
async function onDynamo() {
  const table = await tables.create();
  const deps = await memoryDeps({
    envelopes: new DynamoEnvelopeRepository(tables.db, table), templates: new DynamoTemplateRepository(tables.db, table),
    tenants: new DynamoTenantRepository(tables.db, table), usage: new DynamoUsageRepository(tables.db, table),
  });
  const itemSize = async (PK: string, SK: string) => {
    const { Item } = await tables.db.send(new GetCommand({ TableName: table, Key: { PK, SK }, ConsistentRead: true }));
    expect(Item).toBeDefined();
    return Buffer.byteLength(JSON.stringify(Item));
  };
  return { deps, itemSize };
}

describe('five 2,000-page documents on DynamoDB Local', () => {
  it('in one draft: every upload taken, a field on the last page of the fifth, sent; the envelope item stays small', async () => {
    const { deps, itemSize } = await onDynamo();
    const { envelope, pagesShown } = await heavyEnvelope(deps, APP);
    expect(envelope.status).toBe('sent');
    expect(pagesShown).toEqual(Array.from({ length: DOCUMENTS }, () => PAGES));
    expect(await itemSize(`ENV#${envelope.id}`, 'ENV')).toBeLessThan(SMALL);
  }, 300_000);

  it('in one template: every upload taken, a field on the last page of the fifth, an envelope sent from it; both items stay small', async () => {
    const { deps, itemSize } = await onDynamo();
    const { template, envelope } = await heavyTemplate(deps, APP);
    expect(template.documents.map((d) => d.pageCount)).toEqual(Array.from({ length: DOCUMENTS }, () => PAGES));
    expect(envelope).toMatchObject({ status: 'sent', fields: [{ page: PAGES }] });
    expect(await itemSize(`TPL#${template.id}`, 'TPL')).toBeLessThan(SMALL);
    expect(await itemSize(`ENV#${envelope.id}`, 'ENV')).toBeLessThan(SMALL);
  }, 300_000);
});
