import type { BlobStore, Clock } from '#ports/services.ts';
import { systemClock } from '../system.ts';

interface Blob {
  bytes: Uint8Array;
  contentType: string;
  /** The retention tag and when its window started (service time), as S3BlobStore records them. */
  retention?: { tag: { key: string; value: string }; startedAt: string };
}

/** Objects in memory; bytes are copied in and out (a Buffer's slice would share them), so no caller can change a stored object. */
export class MemoryBlobStore implements BlobStore {
  private readonly objects = new Map<string, Blob>();

  constructor(private readonly clock: Clock = systemClock) {}

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

  retain(key: string, tag: { key: string; value: string }): Promise<void> {
    const blob = this.objects.get(key);
    if (blob) blob.retention = { tag: { ...tag }, startedAt: this.clock.now().toISOString() };
    return Promise.resolve();
  }

  /** The stored keys, sorted: what a test lists where it would list the bucket. */
  keys(): string[] {
    return [...this.objects.keys()].sort();
  }
}
