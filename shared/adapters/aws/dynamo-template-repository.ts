import { BatchGetCommand, type BatchGetCommandOutput, GetCommand, QueryCommand, TransactWriteCommand, type DynamoDBDocumentClient, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { ConcurrentModification } from '#shared/kernel/errors.ts';
import type { Template } from '#shared/templates/templates.ts';
import type { TemplateListQuery, TemplateRepository } from '#shared/ports/repositories.ts';
import { lostRace } from './dynamo.ts';
import { failedConditionAt } from './dynamo-usage-repository.ts';

type Item = Record<string, unknown>;

/**
 * Templates in the one table (decision 41): `TPL#<id> / TPL` holds the template with its roles, fields and documents
 * (at most 1,000 fields and 10 documents: far below 400 KB); GSI1 lists a tenant's templates newest first under
 * `APP#<app>#TPL#<tenant>`; `APP#<app> / TPLCOUNT#<tenant>` counts them for the list's `total`.
 */
const key = (id: string) => ({ PK: `TPL#${id}`, SK: 'TPL' });
const counterKey = (appId: string, tenantId: string) => ({ PK: `APP#${appId}`, SK: `TPLCOUNT#${tenantId}` });
const listPk = (appId: string, tenantId: string) => `APP#${appId}#TPL#${tenantId}`;
const KEYS = new Set(['PK', 'SK', 'itemType', 'GSI1PK', 'GSI1SK']);

const fromItem = (item: Item) => Object.fromEntries(Object.entries(item).filter(([k]) => !KEYS.has(k))) as unknown as Template;
const toItem = (t: Template): Item => ({ ...t, ...key(t.id), itemType: 'template', GSI1PK: listPk(t.appId, t.tenantId), GSI1SK: `${t.createdAt}#${t.id}` });

export class DynamoTemplateRepository implements TemplateRepository {
  constructor(private readonly db: DynamoDBDocumentClient, private readonly table: string) {}

  async get(appId: string, id: string): Promise<Template | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.table, Key: key(id), ConsistentRead: true }));
    return Item?.appId === appId ? fromItem(Item) : undefined;
  }

  async create(template: Template): Promise<void> {
    await this.db.send(new TransactWriteCommand({
      TransactItems: [
        { Put: { TableName: this.table, Item: toItem(template), ConditionExpression: 'attribute_not_exists(PK)' } },
        this.count(template, 1),
      ],
    }));
  }

  async save(template: Template): Promise<void> {
    try {
      await this.db.send(new TransactWriteCommand({
        TransactItems: [{
          Put: { TableName: this.table, Item: toItem(template), ConditionExpression: 'version = :expected', ExpressionAttributeValues: { ':expected': template.version - 1 } },
        }],
      }));
    } catch (error) {
      if (lostRace(error)) throw new ConcurrentModification(template.id);
      throw error;
    }
  }

  async delete(appId: string, id: string): Promise<boolean> {
    const template = await this.get(appId, id);
    if (!template) return false;
    try {
      await this.db.send(new TransactWriteCommand({
        TransactItems: [
          { Delete: { TableName: this.table, Key: key(id), ConditionExpression: 'appId = :app', ExpressionAttributeValues: { ':app': appId } } },
          this.count(template, -1),
        ],
      }));
      return true;
    } catch (error) {
      if (failedConditionAt(error, 0)) return false; // deleted meanwhile
      throw error;
    }
  }

  async list(query: TemplateListQuery): Promise<{ data: Template[]; total: number }> {
    const input: QueryCommandInput = {
      TableName: this.table, IndexName: 'GSI1', ScanIndexForward: false,
      KeyConditionExpression: 'GSI1PK = :pk', ExpressionAttributeValues: { ':pk': listPk(query.appId, query.tenantId) },
    };
    let toSkip = (query.page - 1) * query.pageSize;
    let startKey: Item | undefined;
    const skip = async () => {
      while (toSkip > 0) {
        const skipped = await this.db.send(new QueryCommand({ ...input, Limit: Math.min(toSkip, 1000), ExclusiveStartKey: startKey }));
        toSkip -= skipped.Count ?? 0;
        startKey = skipped.LastEvaluatedKey;
        if (!startKey) return false;
      }
      return true;
    };
    const [more, counter] = await Promise.all([skip(), this.db.send(new GetCommand({ TableName: this.table, Key: counterKey(query.appId, query.tenantId), ConsistentRead: true }))]);
    const total = typeof counter.Item?.count === 'number' ? counter.Item.count : 0;
    if (!more) return { data: [], total };
    const page = await this.db.send(new QueryCommand({ ...input, Limit: query.pageSize, ExclusiveStartKey: startKey }));
    const keys = (page.Items ?? []).map((item): Item => ({ PK: item.PK, SK: item.SK }));
    if (keys.length === 0) return { data: [], total };
    const found = new Map<string, Template>();
    let pending: Item[] | undefined = keys;
    while (pending && pending.length > 0) {
      const result: BatchGetCommandOutput = await this.db.send(new BatchGetCommand({ RequestItems: { [this.table]: { Keys: pending, ConsistentRead: true } } }));
      for (const item of result.Responses?.[this.table] ?? []) found.set(String(item.PK), fromItem(item));
      pending = result.UnprocessedKeys?.[this.table]?.Keys;
    }
    return { data: keys.flatMap((k) => found.get(String(k.PK)) ?? []), total };
  }

  private count(template: Template, by: number) {
    return {
      Update: {
        TableName: this.table, Key: counterKey(template.appId, template.tenantId),
        UpdateExpression: 'SET itemType = :type ADD #count :by',
        ExpressionAttributeNames: { '#count': 'count' },
        ExpressionAttributeValues: { ':type': 'templateCount', ':by': by },
      },
    };
  }
}
