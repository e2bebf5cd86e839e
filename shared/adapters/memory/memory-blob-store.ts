import type { BlobStore } from '#ports/services.ts';

/** Objects in memory; bytes are copied in and out (a Buffer's slice would share them), so no caller can change a stored object. */
export class MemoryBlobStore implements BlobStore {
  private readonly objects = new Map<string, { bytes: Uint8Array; contentType: string }>();

  put(key: string, bytes: Uint8Array, contentType: string): Promise<void> {
    this.objects.set(key, { bytes: new Uint8Array(bytes), contentType });
    return Promise.resolve();
  }

  get(key: string): Promise<Uint8Array | undefined> {
    const blob = this.objects.get(key);
    return Promise.resolve(blob && new Uint8Array(blob.bytes));
  }

  delete(key: string): Promise<void> {
    this.objects.delete(key);
    return Promise.resolve();
  }

  /** No lifecycle rule runs in memory, so there is no age to restart; like S3BlobStore, a missing object is no error. */
  retain(): Promise<void> {
    return Promise.resolve();
  }
}
