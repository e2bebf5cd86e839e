import type { DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { documentClient } from './dynamo.ts';
import { DynamoApplicationRepository } from './dynamo-application-repository.ts';
import { DynamoContactRepository } from './dynamo-contact-repository.ts';
import { DynamoEnvelopeRepository } from './dynamo-envelope-repository.ts';
import { DynamoIdempotencyStore } from './dynamo-idempotency-store.ts';
import { DynamoRateLimiter } from './dynamo-rate-limiter.ts';
import { DynamoTenantRepository } from './dynamo-tenant-repository.ts';
import { DynamoUsageRepository } from './dynamo-usage-repository.ts';
import { DynamoWebhookRepository } from './dynamo-webhook-repository.ts';
import { DynamoTemplateRepository } from './dynamo-template-repository.ts';
import { DynamoBulkSendRepository } from './dynamo-bulk-send-repository.ts';
import { DynamoTeamRepository } from './dynamo-team-repository.ts';

/**
 * Every adapter of the one table (decision 41) over one DynamoDB client: what shared/deps.ts loads, as a unit, the first
 * time a function reads or writes the table. `customize` sees the client before its first use (the local runtime
 * adds its call recorder there).
 */
export function tableAdapters(config: DynamoDBClientConfig, table: string, customize: (client: DynamoDBDocumentClient) => void = () => undefined) {
  const db = documentClient(config);
  customize(db);
  return {
    envelopes: new DynamoEnvelopeRepository(db, table),
    tenants: new DynamoTenantRepository(db, table),
    applications: new DynamoApplicationRepository(db, table),
    webhooks: new DynamoWebhookRepository(db, table),
    contacts: new DynamoContactRepository(db, table),
    usage: new DynamoUsageRepository(db, table),
    rateLimiter: new DynamoRateLimiter(db, table),
    idempotency: new DynamoIdempotencyStore(db, table),
    templates: new DynamoTemplateRepository(db, table),
    bulkSends: new DynamoBulkSendRepository(db, table),
    team: new DynamoTeamRepository(db, table),
  };
}

export type TableAdapters = ReturnType<typeof tableAdapters>;
