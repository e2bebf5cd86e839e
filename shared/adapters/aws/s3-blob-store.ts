import { Buffer } from 'node:buffer';
import { Readable } from 'node:stream';
import { crc32 } from 'node:zlib';
import { CopyObjectCommand, DeleteObjectCommand, GetObjectCommand, NoSuchKey, PutObjectCommand, PutObjectTaggingCommand, S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';

const contentTypeOf = (key: string) => (key.endsWith('.png') ? 'image/png' : 'application/pdf');
const isMissing = (error: unknown) => error instanceof NoSuchKey || ['NoSuchKey', 'NotFound'].includes((error as { name?: string }).name ?? '');
import type { BlobBody, BlobStore, Clock, PresignedPost, StoredBlob } from '#shared/ports/services.ts';
import { systemClock } from '../system.ts';

/** The client this adapter runs on: built by shared/deps.ts when a function first stores or reads a blob. */
export const s3Client = (config: S3ClientConfig) => new S3Client(config);

/** Tries of a put of chunks: the SDK retries no streamed body, so the adapter does, with a fresh stream each time. */
const CHUNKED_PUT_ATTEMPTS = 3;
/** What the SDK would retry: a throttle, a server error, or no answer at all (the connection failed). */
const isRetryable = (error: unknown) => {
  const { $retryable, $fault, $metadata } = error as { $retryable?: unknown; $fault?: string; $metadata?: { httpStatusCode?: number } };
  const status = $metadata?.httpStatusCode ?? 0;
  return $retryable !== undefined || $fault === 'server' || status === 429 || status >= 500 || $metadata === undefined;
};

/** Object metadata: when the retention window started (service time; S3 itself counts from the copy). */
export const RETENTION_STARTED = 'retention-started';

export class S3BlobStore implements BlobStore {
  constructor(private readonly s3: S3Client, private readonly bucket: string, private readonly clock: Clock = systemClock) {}

  async put(key: string, body: BlobBody, contentType: string): Promise<void> {
    if (body instanceof Uint8Array) {
      await this.s3.send(new PutObjectCommand({
        Bucket: this.bucket, Key: key, Body: body, ContentType: contentType, ContentLength: body.byteLength,
      }));
      return;
    }
    await this.putChunks(key, body, contentType);
  }

  /**
   * One PutObject whose body streams the chunks in turn (no joined copy), of known length, with the CRC32 S3 checks
   * computed over the chunks here (given, it keeps the SDK from sending the body aws-chunked to compute its own).
   */
  private async putChunks(key: string, chunks: readonly Uint8Array[], contentType: string): Promise<void> {
    let length = 0;
    let checksum = 0;
    for (const chunk of chunks) {
      length += chunk.byteLength;
      checksum = crc32(chunk, checksum);
    }
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(checksum);
    for (let attempt = 1; ; attempt++) {
      try {
        await this.s3.send(new PutObjectCommand({
          Bucket: this.bucket, Key: key, Body: Readable.from(chunks, { objectMode: false }), ContentType: contentType, ContentLength: length,
          ChecksumCRC32: crc.toString('base64'),
        }));
        return;
      } catch (error) {
        if (attempt >= CHUNKED_PUT_ATTEMPTS || !isRetryable(error)) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100 * 2 ** attempt));
      }
    }
  }

  async get(key: string): Promise<Uint8Array | undefined> {
    try {
      const object = await this.s3.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      return object.Body ? await object.Body.transformToByteArray() : undefined;
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  async read(key: string): Promise<StoredBlob | undefined> {
    try {
      const object = await this.s3.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      return object.Body ? { bytes: await object.Body.transformToByteArray(), metadata: { ...object.Metadata } } : undefined;
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  /** Signed with the function's own credentials: the POST can do no more than the function's role may (PutObject on the key's prefix). */
  async presignPost(key: string, options: { maxBytes: number; expiresInSeconds: number; metadata: Record<string, string> }): Promise<PresignedPost> {
    const metadata = Object.fromEntries(Object.entries(options.metadata).map(([name, value]) => [`x-amz-meta-${name}`, value]));
    const { createPresignedPost } = await import('@aws-sdk/s3-presigned-post');
    const { url, fields } = await createPresignedPost(this.s3, {
      Bucket: this.bucket, Key: key, Expires: options.expiresInSeconds,
      Conditions: [['content-length-range', 1, options.maxBytes]],
      // Every field is also a condition of the policy (the library adds them): the object is stored as these say.
      Fields: { 'Content-Type': contentTypeOf(key), ...metadata },
    });
    return { url, fields };
  }

  async presignGet(key: string, options: { expiresInSeconds: number; contentDisposition: string; contentType: string }): Promise<string> {
    const { getSignedUrl } = await import('@aws-sdk/s3-request-presigner');
    const command = new GetObjectCommand({ Bucket: this.bucket, Key: key, ResponseContentDisposition: options.contentDisposition, ResponseContentType: options.contentType });
    return getSignedUrl(this.s3, command, { expiresIn: options.expiresInSeconds });
  }

  async delete(key: string): Promise<void> {
    await this.s3.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  /**
   * A copy onto itself makes a new object (lifecycle age restarts at the copy) carrying the tag. The separate
   * tagging call is what S3-compatible local engines without tagging on copy need; on S3 it is a no-op rewrite.
   */
  async retain(key: string, tag: { key: string; value: string }): Promise<void> {
    const tagging = `${encodeURIComponent(tag.key)}=${encodeURIComponent(tag.value)}`;
    try {
      await this.s3.send(new CopyObjectCommand({
        Bucket: this.bucket, Key: key, CopySource: `${this.bucket}/${encodeURIComponent(key).replace(/%2F/g, '/')}`,
        MetadataDirective: 'REPLACE', Metadata: { [RETENTION_STARTED]: this.clock.now().toISOString() }, ContentType: contentTypeOf(key),
        TaggingDirective: 'REPLACE', Tagging: tagging,
      }));
      await this.s3.send(new PutObjectTaggingCommand({ Bucket: this.bucket, Key: key, Tagging: { TagSet: [{ Key: tag.key, Value: tag.value }] } }));
    } catch (error) {
      if (isMissing(error)) return; // already gone: nothing to retain
      throw error;
    }
  }
}
