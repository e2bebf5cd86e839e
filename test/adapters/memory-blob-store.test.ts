import { MemoryBlobStore } from '#adapters/memory/memory-blob-store.ts';
import { describeBlobStore } from './contract/blob-store.ts';

describeBlobStore('in memory', { build: () => new MemoryBlobStore() });
