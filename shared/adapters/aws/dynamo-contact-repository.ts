import { GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { contactEmailKey, contactSearchText, type Contact } from '#shared/console/contacts.ts';
import type { ContactRepository } from '#shared/ports/repositories.ts';
import { lostRace } from './dynamo.ts';
import { failedConditionAt } from './dynamo-usage-repository.ts';

type Item = Record<string, unknown>;

/** The contact lives under its lowercased email (unique per application, decision 40) ... */
const contactKey = (appId: string, email: string) => ({ PK: `APP#${appId}`, SK: `CON#${contactEmailKey(email)}` });
/** ... and a pointer by id makes the delete a key read rather than a search. */
const pointerKey = (appId: string, id: string) => ({ PK: `APP#${appId}`, SK: `CONID#${id}` });

function fromItem(item: Item): Contact {
  const { id, appId, name, email, phone, createdAt } = item as unknown as Contact;
  return { id, appId, name, email, phone: phone ?? null, createdAt };
}

const MAX_ATTEMPTS = 5;

export class DynamoContactRepository implements ContactRepository {
  constructor(private readonly db: DynamoDBDocumentClient, private readonly table: string) {}

  /** A Query over the application's contacts; the filter runs server-side on the case-folded name and email. */
  async list(appId: string, search: string | null): Promise<Contact[]> {
    const wanted = search?.trim().toLowerCase();
    const found: Contact[] = [];
    let startKey: Item | undefined;
    do {
      const page = await this.db.send(new QueryCommand({
        TableName: this.table, ConsistentRead: true, ExclusiveStartKey: startKey,
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
        ...(wanted ? { FilterExpression: 'contains(searchText, :search)' } : {}),
        ExpressionAttributeValues: { ':pk': `APP#${appId}`, ':prefix': 'CON#', ...(wanted ? { ':search': wanted } : {}) },
      }));
      found.push(...(page.Items ?? []).map(fromItem));
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    return found;
  }

  /** Insert (contact and pointer in one transaction) or update in place; a race between the two is run again. */
  async upsert(contact: Contact): Promise<Contact> {
    for (let attempt = 1; ; attempt++) {
      const updated = await this.update(contact);
      if (updated) return updated;
      if (await this.insert(contact)) return contact;
      if (attempt >= MAX_ATTEMPTS) throw new Error(`contact ${contact.email} kept changing concurrently`);
    }
  }

  async delete(appId: string, id: string): Promise<boolean> {
    const { Item: pointer } = await this.db.send(new GetCommand({ TableName: this.table, Key: pointerKey(appId, id), ConsistentRead: true }));
    if (typeof pointer?.email !== 'string') return false;
    try {
      await this.db.send(new TransactWriteCommand({
        TransactItems: [
          { Delete: { TableName: this.table, Key: contactKey(appId, pointer.email), ConditionExpression: 'id = :id', ExpressionAttributeValues: { ':id': id } } },
          { Delete: { TableName: this.table, Key: pointerKey(appId, id) } },
        ],
      }));
      return true;
    } catch (error) {
      if (failedConditionAt(error, 0)) return false; // deleted meanwhile
      throw error;
    }
  }

  /** Updates an existing contact with this email; undefined when there is none. */
  private async update(contact: Contact): Promise<Contact | undefined> {
    try {
      const { Attributes } = await this.db.send(new UpdateCommand({
        TableName: this.table, Key: contactKey(contact.appId, contact.email),
        UpdateExpression: 'SET #name = :name, email = :email, phone = :phone, searchText = :search',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeNames: { '#name': 'name' },
        ExpressionAttributeValues: { ':name': contact.name, ':email': contact.email, ':phone': contact.phone, ':search': contactSearchText(contact) },
        ReturnValues: 'ALL_NEW',
      }));
      return Attributes ? fromItem(Attributes) : undefined;
    } catch (error) {
      if ((error as { name?: string }).name === 'ConditionalCheckFailedException') return undefined;
      throw error;
    }
  }

  /** False when a contact with this email appeared meanwhile. */
  private async insert(contact: Contact): Promise<boolean> {
    try {
      await this.db.send(new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: this.table, ConditionExpression: 'attribute_not_exists(PK)',
              Item: { ...contact, ...contactKey(contact.appId, contact.email), searchText: contactSearchText(contact), itemType: 'contact' },
            },
          },
          { Put: { TableName: this.table, Item: { ...pointerKey(contact.appId, contact.id), email: contactEmailKey(contact.email), itemType: 'contactId' } } },
        ],
      }));
      return true;
    } catch (error) {
      if (lostRace(error)) return false;
      throw error;
    }
  }
}
