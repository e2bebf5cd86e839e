import { DeleteObjectCommand, GetObjectTaggingCommand, HeadObjectCommand, ListObjectsV2Command, NotFound, S3Client } from '@aws-sdk/client-s3';
import type { S3Event } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { RETENTION_STARTED } from '#shared/adapters/aws/s3-blob-store.ts';
import type { Envelope } from '#shared/kernel/model.ts';
import type { Submission } from '#shared/signing/submission.ts';
import { RETENTION_TAG } from '#shared/retention/retention.ts';
import { lifecycleJob } from '#local/lifecycle.ts';

const DAY = 86_400_000;
const s3Mock = mockClient(S3Client);
afterEach(() => { s3Mock.reset(); });

/** An ended envelope as the lifecycle reads it: its documents (one already purged) and a signer's image. */
function ended(id: string) {
  const envelope = {
    id, documents: [
      { blobKey: `original/${id}/a.pdf`, textIndexKey: `original/${id}/a.txt`, purgeStatus: 'active' },
      { blobKey: `sealed/${id}.pdf`, textIndexKey: null, purgeStatus: 'active' },
      { blobKey: `original/${id}/gone.pdf`, textIndexKey: null, purgeStatus: 'purged' },
    ],
  } as unknown as Envelope;
  const submissions = [{ values: [{ kind: 'image', blobKey: `signatures/${id}/s.png` }, { kind: 'text', value: 'x' }] }] as unknown as Submission[];
  return { envelope, submissions };
}

describe('the local lifecycle rules', () => {
  it('checks the objects of the envelopes the table says are due, one by one, deleting those whose rule has expired; never lists the bucket', async () => {
    const now = new Date('2026-03-01T00:00:00.000Z');
    const due = ended('due');
    const longer = ended('longer'); // its tenant's 30 days rounded up to a longer class: past its date, not its rule
    const envelopes = new Map([[due.envelope.id, due], [longer.envelope.id, longer]]);
    const asked: Date[] = [];
    const repository = {
      retainedUntil: (until: Date) => { asked.push(until); return Promise.resolve([...envelopes.keys(), 'vanished']); },
      find: (id: string) => Promise.resolve(envelopes.get(id)?.envelope),
      submissions: (id: string) => Promise.resolve(envelopes.get(id)?.submissions ?? []),
    };
    const started = new Date(now.getTime() - 31 * DAY).toISOString();
    s3Mock.on(HeadObjectCommand).callsFake((input: { Key: string }) => {
      if (input.Key === 'sealed/due.pdf') throw new NotFound({ message: 'gone', $metadata: {} });
      return { Metadata: { [RETENTION_STARTED]: started }, LastModified: now };
    });
    s3Mock.on(GetObjectTaggingCommand).callsFake((input: { Key: string }) => ({ TagSet: [{ Key: RETENTION_TAG, Value: input.Key.includes('longer') ? 'd90' : 'd30' }] }));
    s3Mock.on(DeleteObjectCommand).resolves({});
    const removed: string[] = [];
    const job = lifecycleJob(new S3Client({ region: 'us-east-1' }), 'docs', repository, (event: S3Event) => {
      removed.push(...event.Records.map((r) => r.s3.object.key));
      return Promise.resolve();
    });

    await job(now);

    expect(asked).toEqual([now]);
    expect(s3Mock.commandCalls(ListObjectsV2Command)).toEqual([]);
    // The image first, then each document's text index and the document: so a document is never gone while its image stays.
    const deleted = s3Mock.commandCalls(DeleteObjectCommand).map((c) => c.args[0].input.Key);
    expect(deleted).toEqual(['signatures/due/s.png', 'original/due/a.txt', 'original/due/a.pdf']);
    expect(removed).toEqual(deleted);
  });
});
