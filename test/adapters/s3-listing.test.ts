import { randomUUID } from 'node:crypto';
import { CreateBucketCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { localS3ClientConfig } from '#local/engines/s3.ts';

const OBJECTS = 2_500;
const PAGE = 100;
const keyOf = (i: number) => `listing/${String(i).padStart(5, '0')}`;

/** Every page of a ListObjectsV2, following the continuation token, as S3 hands them out. */
async function pages(s3: S3Client, bucket: string, prefix: string) {
  const seen: { keys: string[]; truncated: boolean }[] = [];
  let token: string | undefined;
  do {
    const page = await s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, MaxKeys: PAGE, ContinuationToken: token }));
    seen.push({ keys: (page.Contents ?? []).map((o) => o.Key ?? ''), truncated: page.IsTruncated ?? false });
    token = page.NextContinuationToken;
  } while (token && seen.length <= OBJECTS / PAGE);
  return seen;
}

describe('the local S3 lists a bucket page by page', () => {
  const s3 = new S3Client(localS3ClientConfig(inject('s3Endpoint')));
  // A bucket of its own: the other suites' objects never change what this one lists.
  const bucket = `listing-${randomUUID().slice(0, 8)}`;

  beforeAll(async () => {
    await s3.send(new CreateBucketCommand({ Bucket: bucket }));
    const keys = Array.from({ length: OBJECTS }, (_, i) => keyOf(i));
    for (let start = 0; start < keys.length; start += 25) {
      await Promise.all(keys.slice(start, start + 25).map((Key) => s3.send(new PutObjectCommand({ Bucket: bucket, Key, Body: Key }))));
    }
  }, 120_000);
  afterAll(() => { s3.destroy(); });

  it(`hands out ${String(OBJECTS)} objects in pages of ${String(PAGE)}, each once and in key order, with a continuation token on all but the last`, async () => {
    const listed = await pages(s3, bucket, 'listing/');
    expect(listed).toHaveLength(OBJECTS / PAGE);
    expect(listed.map((p) => p.keys.length)).toEqual(listed.map(() => PAGE));
    expect(listed.map((p) => p.truncated)).toEqual(listed.map((_, i) => i < listed.length - 1));
    expect(listed.flatMap((p) => p.keys)).toEqual(Array.from({ length: OBJECTS }, (_, i) => keyOf(i)));
  });

  it('refuses a continuation token it did not hand out', async () => {
    const forged = Buffer.from('us-east-1/other-bucket/listing/00010').toString('base64');
    await expect(s3.send(new ListObjectsV2Command({ Bucket: bucket, MaxKeys: PAGE, ContinuationToken: forged }))).rejects.toMatchObject({ name: 'InvalidArgument' });
  });
});
