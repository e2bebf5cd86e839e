import type { BulkRowInput, BulkRowResult, BulkSend } from '#domain/bulk-send.ts';
import type { BulkSendRepository } from '#ports/repositories.ts';
import { copy } from './table.ts';

/** Bulk sends in memory, with the DynamoDB adapter's semantics. */
export class MemoryBulkSendRepository implements BulkSendRepository {
  private readonly batches = new Map<string, { batch: BulkSend; chunks: BulkRowInput[][]; results: Map<number, BulkRowResult> }>();

  create(batch: BulkSend, chunks: readonly BulkRowInput[][]): Promise<void> {
    if (this.batches.has(batch.id)) return Promise.reject(new Error(`bulk send ${batch.id} exists`));
    this.batches.set(batch.id, { batch: copy(batch), chunks: copy([...chunks]), results: new Map() });
    return Promise.resolve();
  }

  get(appId: string, id: string): Promise<BulkSend | undefined> {
    const found = this.batches.get(id);
    return Promise.resolve(found?.batch.appId === appId ? copy(found.batch) : undefined);
  }

  chunk(batchId: string, index: number): Promise<BulkRowInput[] | undefined> {
    const rows = this.batches.get(batchId)?.chunks[index];
    return Promise.resolve(rows ? copy(rows) : undefined);
  }

  results(batchId: string): Promise<BulkRowResult[]> {
    const results = [...(this.batches.get(batchId)?.results.values() ?? [])];
    return Promise.resolve(results.sort((a, b) => a.row - b.row).map(copy));
  }

  recordResult(batchId: string, result: BulkRowResult, ifAbsent: boolean): Promise<boolean> {
    const batch = this.batches.get(batchId);
    if (!batch) return Promise.reject(new Error(`no bulk send ${batchId}`));
    if (ifAbsent && batch.results.has(result.row)) return Promise.resolve(false);
    batch.results.set(result.row, copy(result));
    return Promise.resolve(true);
  }
}
