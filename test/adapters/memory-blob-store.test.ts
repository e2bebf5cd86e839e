import { MemoryBlobStore } from '#shared/adapters/memory/memory-blob-store.ts';
import { describeBlobStore } from './contract/blob-store.ts';

describeBlobStore('in memory', { build: () => new MemoryBlobStore() }, {
  post: (store, url, fields, file) => store.receivePost(url, fields, file).then(() => 204, (error: unknown) => ((error as Error).message.startsWith('AccessDenied') ? 403 : 400)),
  get: async (store, url) => {
    const { pathname, searchParams } = new URL(url);
    const bytes = await store.get(decodeURIComponent(pathname.slice(1)));
    return { status: bytes ? 200 : 404, disposition: searchParams.get('response-content-disposition'), bytes: bytes ?? new Uint8Array() };
  },
});
