/**
 * Sealed files by their SHA-256: `PK = SEALED#<sha256>, SK = ENV#<envelopeId>#<documentId>`, one item per sealed file,
 * put in the transaction that completes the envelope, so a holder of the file can learn that the service sealed it.
 */
import { QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

export const sealedHashItem = (envelopeId: string, documentId: string, sha256: string): Record<string, unknown> => ({
  PK: `SEALED#${sha256}`, SK: `ENV#${envelopeId}#${documentId}`, envelopeId, documentId, itemType: 'sealed-hash',
});

export async function findSealedHash(db: DynamoDBDocumentClient, table: string, sha256: string): Promise<{ envelopeId: string; documentId: string } | undefined> {
  const page = await db.send(new QueryCommand({
    TableName: table, KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': `SEALED#${sha256}` }, Limit: 1,
  }));
  const item = page.Items?.[0];
  return typeof item?.envelopeId === 'string' && typeof item.documentId === 'string' ? { envelopeId: item.envelopeId, documentId: item.documentId } : undefined;
}
