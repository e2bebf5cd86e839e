import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { BlobStore } from '#ports/services.ts';
import { useBuilt, type Builder } from './fixtures.ts';

/** BlobStore: bytes stored under a key, undefined once gone, and retention tagging that never fails on a missing object. */
export function describeBlobStore(name: string, builder: Builder<BlobStore>): void {
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

    it('shares no bytes with its callers', async () => {
      const k = key();
      const bytes = Buffer.from('%PDF-1.7 original');
      await blobs().put(k, bytes, 'application/pdf');
      bytes.fill(0);
      const read = await blobs().get(k);
      read?.fill(1);
      expect(Buffer.from((await blobs().get(k)) ?? []).toString()).toBe('%PDF-1.7 original');
    });
  });
}
