import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { BlobStore } from '#shared/ports/services.ts';
import { useBuilt, type Builder } from './fixtures.ts';

/** How a client uses a presigned URL of the store under test: a multipart POST (fields, then the file) and a GET. */
export interface PresignedTransport<S extends BlobStore> {
  /** The store's answer: a 2xx status when it stored the file, else its refusal's status (S3: 400 or 403). */
  post: (store: S, url: string, fields: Record<string, string>, file: Uint8Array) => Promise<number>;
  get: (store: S, url: string) => Promise<{ status: number; disposition: string | null; bytes: Uint8Array }>;
}

/**
 * BlobStore: bytes stored under a key, undefined once gone, retention tagging that never fails on a missing object,
 * and presigned URLs whose policy the store enforces (size, key, metadata).
 */
export function describeBlobStore<S extends BlobStore>(name: string, builder: Builder<S>, transport: PresignedTransport<S>): void {
  describe(`BlobStore contract: ${name}`, () => {
    const blobs = useBuilt(builder);
    const key = (ext = 'pdf') => `contract/${randomUUID()}/${randomUUID()}.${ext}`;

    it('reads back the bytes it stored, replaces them on a second put, and answers undefined once deleted', async () => {
      const k = key();
      await blobs().put(k, new Uint8Array([37, 80, 68, 70, 1]), 'application/pdf');
      expect(await blobs().get(k)).toEqual(new Uint8Array([37, 80, 68, 70, 1]));
      await blobs().put(k, Buffer.from('%PDF-2'), 'application/pdf');
      expect(Buffer.from((await blobs().get(k)) ?? [])).toEqual(Buffer.from('%PDF-2'));
      await blobs().delete(k);
      expect(await blobs().get(k)).toBeUndefined();
    });

    it('answers undefined for a key never stored, and deletes one without complaint', async () => {
      const k = key();
      expect(await blobs().get(k)).toBeUndefined();
      await expect(blobs().delete(k)).resolves.toBeUndefined();
    });

    it('keeps an object readable when it is retained, and does nothing for one that is gone', async () => {
      const k = key('png');
      await blobs().put(k, new Uint8Array([137, 80, 78, 71]), 'image/png');
      await blobs().retain(k, { key: 'retention', value: 'signed copy 30d' });
      expect(await blobs().get(k)).toEqual(new Uint8Array([137, 80, 78, 71]));
      await expect(blobs().retain(key(), { key: 'retention', value: 'sealed' })).resolves.toBeUndefined();
    });

    it('stores chunks as their concatenation, sharing no bytes with them', async () => {
      const k = key();
      const chunks = [Buffer.from('%PDF-1.7 original\n'), new Uint8Array(70_000).fill(7), new Uint8Array(0), Buffer.from('trailer\n%%EOF\n')];
      const whole = Buffer.concat(chunks);
      await blobs().put(k, chunks, 'application/pdf');
      chunks[1]?.fill(0);
      expect(Buffer.from((await blobs().get(k)) ?? []).equals(whole)).toBe(true);
    });

    it('shares no bytes with its callers', async () => {
      const k = key();
      const bytes = Buffer.from('%PDF-1.7 original');
      await blobs().put(k, bytes, 'application/pdf');
      bytes.fill(0);
      const read = await blobs().get(k);
      read?.fill(1);
      expect(Buffer.from((await blobs().get(k)) ?? []).toString()).toBe('%PDF-1.7 original');
    });

    it('reads an object back with the metadata a presigned POST fixed, and no more than maxBytes', async () => {
      const k = key();
      const { url, fields } = await blobs().presignPost(k, { maxBytes: 64, expiresInSeconds: 60, metadata: { filename: 'A%20contract.pdf' } });
      expect(fields.key).toBe(k);
      const stored = await transport.post(blobs(), url, fields, Buffer.from('%PDF-1.7 posted'));
      expect(stored).toBeGreaterThanOrEqual(200);
      expect(stored).toBeLessThan(300);
      const read = await blobs().read(k);
      expect(Buffer.from(read?.bytes ?? []).toString()).toBe('%PDF-1.7 posted');
      expect(read?.metadata.filename).toBe('A%20contract.pdf');
      expect(await transport.post(blobs(), url, fields, new Uint8Array(65).fill(37))).toBe(400);
      expect(await transport.post(blobs(), url, { ...fields, 'x-amz-meta-filename': 'other.pdf' }, Buffer.from('%PDF-1.7 other'))).toBe(403);
      expect(await transport.post(blobs(), url, { ...fields, key: `${k}.other` }, Buffer.from('%PDF-1.7 other'))).toBe(403);
      expect(Buffer.from((await blobs().read(k))?.bytes ?? []).toString()).toBe('%PDF-1.7 posted');
      expect(await blobs().read(key())).toBeUndefined();
    });

    it('presigns a GET whose answer names the file as asked', async () => {
      const k = key();
      await blobs().put(k, Buffer.from('%PDF-1.7 served'), 'application/pdf');
      const url = await blobs().presignGet(k, { expiresInSeconds: 300, contentDisposition: 'attachment; filename="Deal.pdf"', contentType: 'application/pdf' });
      const answer = await transport.get(blobs(), url);
      expect(answer.status).toBe(200);
      expect(answer.disposition).toBe('attachment; filename="Deal.pdf"');
      expect(Buffer.from(answer.bytes).toString()).toBe('%PDF-1.7 served');
    });
  });
}

/** A client over HTTP, as a browser or an API client uses presigned URLs of S3 (or the local engine). */
export const httpTransport = <S extends BlobStore>(): PresignedTransport<S> => ({
  post: async (_store, url, fields, file) => {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    form.append('file', new Blob([file], { type: 'application/pdf' }), 'upload.pdf');
    return (await fetch(url, { method: 'POST', body: form })).status;
  },
  get: async (_store, url) => {
    const answer = await fetch(url);
    return { status: answer.status, disposition: answer.headers.get('content-disposition'), bytes: new Uint8Array(await answer.arrayBuffer()) };
  },
});
