import { DynamoDBDocumentClient, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { describe, expect, it } from 'vitest';
import { DynamoApplicationRepository } from '#shared/adapters/aws/dynamo-application-repository.ts';
import { DynamoContactRepository } from '#shared/adapters/aws/dynamo-contact-repository.ts';
import { DynamoIdempotencyStore } from '#shared/adapters/aws/dynamo-idempotency-store.ts';
import { DynamoRateLimiter } from '#shared/adapters/aws/dynamo-rate-limiter.ts';
import { DynamoTenantRepository } from '#shared/adapters/aws/dynamo-tenant-repository.ts';
import { DynamoWebhookRepository } from '#shared/adapters/aws/dynamo-webhook-repository.ts';
import { dynamoTables } from '#test/support/dynamo-tables.ts';
import { describeApplicationRepository, describeContactRepository, describeTenantRepository } from './contract/accounts.ts';
import { describeIdempotencyStore, describeRateLimiter } from './contract/traffic.ts';
import { describeWebhookRepository } from './contract/webhooks.ts';
import { describeBulkSendRepository, describeTemplateRepository } from './contract/templates.ts';
import { DynamoTemplateRepository } from '#shared/adapters/aws/dynamo-template-repository.ts';
import { DynamoBulkSendRepository } from '#shared/adapters/aws/dynamo-bulk-send-repository.ts';
import { DynamoTeamRepository } from '#shared/adapters/aws/dynamo-team-repository.ts';
import { describeTeamRepository } from './contract/team.ts';

const tables = dynamoTables('traffic-contract');
const on = <T>(adapter: new (db: DynamoDBDocumentClient, table: string) => T) =>
  ({ build: async () => new adapter(tables.db, await tables.create()), drop: tables.drop });

describeRateLimiter('DynamoDB Local', on(DynamoRateLimiter));
describeTeamRepository('DynamoDB Local', on(DynamoTeamRepository));
describeIdempotencyStore('DynamoDB Local', on(DynamoIdempotencyStore));
describeApplicationRepository('DynamoDB Local', on(DynamoApplicationRepository));
describeTenantRepository('DynamoDB Local', on(DynamoTenantRepository));
describeContactRepository('DynamoDB Local', on(DynamoContactRepository));
describeWebhookRepository('DynamoDB Local', on(DynamoWebhookRepository));
describeTemplateRepository('DynamoDB Local', on(DynamoTemplateRepository));
describeBulkSendRepository('DynamoDB Local', on(DynamoBulkSendRepository));

describe('DynamoRateLimiter', () => {
  it('gives up, rather than spinning, when the counter keeps changing under it', async () => {
    const mock = mockClient(DynamoDBDocumentClient);
    try {
      const failed = Object.assign(new Error('condition'), { name: 'ConditionalCheckFailedException' });
      mock.on(UpdateCommand).rejects(failed).on(PutCommand).rejects(failed);
      await expect(new DynamoRateLimiter(tables.db, 'no-table').hit('ip#1', 60, new Date())).rejects.toThrow(/kept changing/);
      expect(mock.commandCalls(UpdateCommand)).toHaveLength(5);
    } finally {
      mock.restore();
    }
  });

  it('counts a key never seen in one call; only a closed window costs the put that opens the next', async () => {
    const table = await tables.create();
    let calls = 0;
    const counted = Object.assign(Object.create(tables.db) as DynamoDBDocumentClient, {
      send: (command: never) => { calls++; return tables.db.send(command); },
    });
    const limiter = new DynamoRateLimiter(counted, table);
    const t0 = new Date('2026-01-01T00:00:00.000Z');
    expect(await limiter.hit('tok#new', 60, t0)).toEqual({ count: 1, resetAtMs: t0.getTime() + 60_000 });
    expect(calls).toBe(1);
    expect(await limiter.hit('tok#new', 60, new Date(t0.getTime() + 1000))).toEqual({ count: 2, resetAtMs: t0.getTime() + 60_000 });
    expect(calls).toBe(2);
    const later = new Date(t0.getTime() + 61_000);
    expect(await limiter.hit('tok#new', 60, later)).toEqual({ count: 1, resetAtMs: later.getTime() + 60_000 });
    expect(calls).toBe(4);
  });
});
