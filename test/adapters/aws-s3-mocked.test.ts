/** The S3 blob store against a mocked S3 client: the calls it makes and the errors it maps (s3-blob-store.test.ts runs it on s3rver). */
import { CopyObjectCommand, GetObjectCommand, NoSuchKey, NotFound, PutObjectCommand, PutObjectTaggingCommand, S3Client, S3ServiceException, type GetObjectCommandOutput } from '@aws-sdk/client-s3';
import type { Readable } from 'node:stream';
import { crc32 } from 'node:zlib';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { RETENTION_STARTED, S3BlobStore } from '#shared/adapters/aws/s3-blob-store.ts';
import type { Clock } from '#shared/ports/services.ts';

const REGION = { region: 'eu-west-1' };
const $metadata = {};

const s3Mock = mockClient(S3Client);

afterEach(() => {
  s3Mock.reset();
});

/** A streaming body double: the adapter only reads it through `transformToByteArray`. */
const bodyOf = (bytes: Uint8Array) =>
  ({ transformToByteArray: () => Promise.resolve(bytes) }) as unknown as GetObjectCommandOutput['Body'];

describe('S3BlobStore', () => {
  const BUCKET = 'documents';
  const NOW = new Date('2030-01-02T03:04:05.000Z');
  const clock: Clock = { now: () => NOW };
  const store = () => new S3BlobStore(new S3Client(REGION), BUCKET, clock);
  const denied = () => new S3ServiceException({ name: 'AccessDenied', $fault: 'client', $metadata, message: 'denied' });

  it('puts the bytes with their content type and length', async () => {
    s3Mock.on(PutObjectCommand).resolves({});
    const bytes = new Uint8Array([1, 2, 3, 4, 5]);
    await store().put('envelopes/e1/original.pdf', bytes, 'application/pdf');
    const calls = s3Mock.commandCalls(PutObjectCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.args[0].input).toEqual({
      Bucket: BUCKET, Key: 'envelopes/e1/original.pdf', Body: bytes, ContentType: 'application/pdf', ContentLength: 5,
    });
  });

  it('puts chunks as one streamed body of their total length, with the CRC32 of their concatenation', async () => {
    const chunks = [Buffer.from('%PDF-1.7\n'), new Uint8Array(3000).fill(9), Buffer.from('%%EOF\n')];
    const bodies: Buffer[] = [];
    s3Mock.on(PutObjectCommand).callsFake(async (input: { Body: Readable }) => { bodies.push(Buffer.concat(await input.Body.toArray() as Uint8Array[])); return {}; });
    await store().put('sealed/e1/s1/d1.pdf', chunks, 'application/pdf');
    const whole = Buffer.concat(chunks);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(whole));
    expect(s3Mock.commandCalls(PutObjectCommand)[0]!.args[0].input).toMatchObject({
      Bucket: BUCKET, Key: 'sealed/e1/s1/d1.pdf', ContentType: 'application/pdf', ContentLength: whole.length, ChecksumCRC32: crc.toString('base64'),
    });
    expect(bodies.map((b) => b.equals(whole))).toEqual([true]);
  });

  it('tries a chunked put again with a fresh stream after a server error (the SDK retries no stream), but not after a refusal', async () => {
    const chunks = [Buffer.from('%PDF-1.7\n'), Buffer.from('%%EOF\n')];
    const bodies: Buffer[] = [];
    const unavailable = new S3ServiceException({ name: 'ServiceUnavailable', $fault: 'server', $metadata: { httpStatusCode: 503 }, message: 'slow down' });
    s3Mock.on(PutObjectCommand).callsFakeOnce(async (input: { Body: Readable }) => { bodies.push(Buffer.concat(await input.Body.toArray() as Uint8Array[])); throw unavailable; })
      .callsFake(async (input: { Body: Readable }) => { bodies.push(Buffer.concat(await input.Body.toArray() as Uint8Array[])); return {}; });
    await store().put('sealed/e1/s1/d1.pdf', chunks, 'application/pdf');
    expect(bodies.map((b) => b.toString())).toEqual(['%PDF-1.7\n%%EOF\n', '%PDF-1.7\n%%EOF\n']);

    s3Mock.reset();
    s3Mock.on(PutObjectCommand).rejects(denied());
    await expect(store().put('sealed/e1/s1/d1.pdf', chunks, 'application/pdf')).rejects.toThrow('denied');
    expect(s3Mock.commandCalls(PutObjectCommand)).toHaveLength(1);
  });

  it('propagates a failed put', async () => {
    s3Mock.on(PutObjectCommand).rejects(denied());
    await expect(store().put('k', new Uint8Array([1]), 'image/png')).rejects.toBeInstanceOf(S3ServiceException);
  });

  it('gets the object bytes', async () => {
    const bytes = new Uint8Array([37, 80, 68, 70]);
    s3Mock.on(GetObjectCommand, { Bucket: BUCKET, Key: 'envelopes/e1/sealed.pdf' }).resolves({ Body: bodyOf(bytes) });
    await expect(store().get('envelopes/e1/sealed.pdf')).resolves.toEqual(bytes);
    expect(s3Mock.commandCalls(GetObjectCommand)[0]!.args[0].input).toEqual({ Bucket: BUCKET, Key: 'envelopes/e1/sealed.pdf' });
  });

  it('gets undefined for an object without a body', async () => {
    s3Mock.on(GetObjectCommand).resolves({});
    await expect(store().get('k')).resolves.toBeUndefined();
  });

  it('gets undefined when the key does not exist (NoSuchKey)', async () => {
    s3Mock.on(GetObjectCommand).rejects(new NoSuchKey({ message: 'x', $metadata }));
    await expect(store().get('missing')).resolves.toBeUndefined();
  });

  it('gets undefined on a NotFound-named error', async () => {
    s3Mock.on(GetObjectCommand).rejects(new NotFound({ message: 'x', $metadata }));
    await expect(store().get('missing')).resolves.toBeUndefined();
  });

  it('gets undefined on a plain error named NoSuchKey (S3-compatible engines)', async () => {
    s3Mock.on(GetObjectCommand).rejects(Object.assign(new Error('gone'), { name: 'NoSuchKey' }));
    await expect(store().get('missing')).resolves.toBeUndefined();
  });

  it('propagates any other get error', async () => {
    const error = denied();
    s3Mock.on(GetObjectCommand).rejects(error);
    await expect(store().get('k')).rejects.toBe(error);
  });

  it('retains by copying the object onto itself with REPLACE directives and the tag, then tagging it', async () => {
    s3Mock.on(CopyObjectCommand).resolves({});
    s3Mock.on(PutObjectTaggingCommand).resolves({});
    await store().retain('envelopes/e1/sealed file.pdf', { key: 'retention', value: 'sealed 7y' });

    const copies = s3Mock.commandCalls(CopyObjectCommand);
    expect(copies).toHaveLength(1);
    expect(copies[0]!.args[0].input).toEqual({
      Bucket: BUCKET,
      Key: 'envelopes/e1/sealed file.pdf',
      CopySource: `${BUCKET}/envelopes/e1/sealed%20file.pdf`,
      MetadataDirective: 'REPLACE',
      Metadata: { [RETENTION_STARTED]: NOW.toISOString() },
      ContentType: 'application/pdf',
      TaggingDirective: 'REPLACE',
      Tagging: 'retention=sealed%207y',
    });

    const taggings = s3Mock.commandCalls(PutObjectTaggingCommand);
    expect(taggings).toHaveLength(1);
    expect(taggings[0]!.args[0].input).toEqual({
      Bucket: BUCKET, Key: 'envelopes/e1/sealed file.pdf', Tagging: { TagSet: [{ Key: 'retention', Value: 'sealed 7y' }] },
    });
    // Copy first, then the tagging call.
    expect(s3Mock.calls().map((call) => call.args[0].constructor)).toEqual([CopyObjectCommand, PutObjectTaggingCommand]);
  });

  it('retains a PNG with its image content type', async () => {
    s3Mock.on(CopyObjectCommand).resolves({});
    s3Mock.on(PutObjectTaggingCommand).resolves({});
    await store().retain('envelopes/e1/page-1.png', { key: 'retention', value: 'draft' });
    expect(s3Mock.commandCalls(CopyObjectCommand)[0]!.args[0].input.ContentType).toBe('image/png');
  });

  it('does nothing when the object to retain is gone (NoSuchKey)', async () => {
    s3Mock.on(CopyObjectCommand).rejects(new NoSuchKey({ message: 'x', $metadata }));
    await expect(store().retain('gone.pdf', { key: 'retention', value: 'sealed' })).resolves.toBeUndefined();
    expect(s3Mock.commandCalls(PutObjectTaggingCommand)).toHaveLength(0);
  });

  it('does nothing when the object disappears before tagging (NotFound)', async () => {
    s3Mock.on(CopyObjectCommand).resolves({});
    s3Mock.on(PutObjectTaggingCommand).rejects(new NotFound({ message: 'x', $metadata }));
    await expect(store().retain('gone.pdf', { key: 'retention', value: 'sealed' })).resolves.toBeUndefined();
  });

  it('propagates any other retain error', async () => {
    const error = denied();
    s3Mock.on(CopyObjectCommand).rejects(error);
    await expect(store().retain('k.pdf', { key: 'retention', value: 'sealed' })).rejects.toBe(error);
    expect(s3Mock.commandCalls(PutObjectTaggingCommand)).toHaveLength(0);
  });
});
