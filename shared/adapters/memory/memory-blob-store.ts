import type { BlobBody, BlobStore, PresignedPost, StoredBlob } from '#shared/ports/services.ts';

/** Objects in memory; bytes are copied in and out (a Buffer's slice would share them), so no caller can change a stored object. */
export class MemoryBlobStore implements BlobStore {
  private readonly objects = new Map<string, { bytes: Uint8Array; contentType: string; metadata: Record<string, string> }>();
  private readonly posts = new Map<string, { key: string; maxBytes: number; expiresAt: number; metadata: Record<string, string> }>();

  put(key: string, body: BlobBody, contentType: string): Promise<void> {
    const bytes = body instanceof Uint8Array ? new Uint8Array(body) : Buffer.concat(body); // a new buffer: the copy the store keeps
    this.objects.set(key, { bytes, contentType, metadata: {} });
    return Promise.resolve();
  }

  read(key: string): Promise<StoredBlob | undefined> {
    const blob = this.objects.get(key);
    return Promise.resolve(blob && { bytes: new Uint8Array(blob.bytes), metadata: { ...blob.metadata } });
  }

  /** A `memory:` URL; `receivePost` plays the client's POST to it, with the checks S3 makes of the policy. */
  presignPost(key: string, options: { maxBytes: number; expiresInSeconds: number; metadata: Record<string, string> }): Promise<PresignedPost> {
    const id = String(this.posts.size + 1);
    this.posts.set(id, { key, maxBytes: options.maxBytes, expiresAt: Date.now() + options.expiresInSeconds * 1000, metadata: { ...options.metadata } });
    return Promise.resolve({ url: `memory://post/${id}`, fields: { key, ...Object.fromEntries(Object.entries(options.metadata).map(([k, v]) => [`x-amz-meta-${k}`, v])) } });
  }

  /** What S3 does with a POST to a presigned URL: refuses it when expired, altered or of a size outside 1..maxBytes, else stores the file. */
  receivePost(url: string, fields: Record<string, string>, bytes: Uint8Array): Promise<void> {
    const post = this.posts.get(url.replace('memory://post/', ''));
    if (!post) return Promise.reject(new Error(`no presigned POST ${url}`));
    const altered = fields.key !== post.key || Object.entries(post.metadata).some(([k, v]) => fields[`x-amz-meta-${k}`] !== v);
    if (Date.now() > post.expiresAt || altered) return Promise.reject(new Error('AccessDenied: Invalid according to Policy'));
    if (bytes.byteLength < 1 || bytes.byteLength > post.maxBytes) return Promise.reject(new Error('EntityTooLarge: outside the content-length-range'));
    this.objects.set(post.key, { bytes: new Uint8Array(bytes), contentType: 'application/pdf', metadata: { ...post.metadata } });
    return Promise.resolve();
  }

  presignGet(key: string, options: { expiresInSeconds: number; contentDisposition: string; contentType: string }): Promise<string> {
    const query = new URLSearchParams({ 'response-content-disposition': options.contentDisposition, 'response-content-type': options.contentType, expires: String(options.expiresInSeconds) });
    return Promise.resolve(`memory://get/${encodeURIComponent(key)}?${query.toString()}`);
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
