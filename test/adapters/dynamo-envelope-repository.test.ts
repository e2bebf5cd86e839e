import { DynamoEnvelopeRepository } from '#adapters/aws/dynamo-envelope-repository.ts';
import { DynamoTenantRepository } from '#adapters/aws/dynamo-tenant-repository.ts';
import { DynamoUsageRepository } from '#adapters/aws/dynamo-usage-repository.ts';
import { dynamoTables } from '#test/support/dynamo-tables.ts';
import { describeEnvelopeRepository } from './contract/envelope-repository.ts';
import { describeEnvelopeSweeps } from './contract/envelope-sweeps.ts';

const tables = dynamoTables('envelope-contract');

describeEnvelopeRepository('DynamoDB Local', {
  build: async () => {
    const table = await tables.create();
    return { envelopes: new DynamoEnvelopeRepository(tables.db, table), usage: new DynamoUsageRepository(tables.db, table), tenants: new DynamoTenantRepository(tables.db, table) };
  },
  drop: tables.drop,
});

describeEnvelopeSweeps('DynamoDB Local', {
  build: async () => ({ envelopes: new DynamoEnvelopeRepository(tables.db, await tables.create()) }),
  drop: tables.drop,
});
