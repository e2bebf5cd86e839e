import type { BulkCheck, BulkChunk, BulkRowResult, BulkSend } from '#shared/templates/bulk-send.ts';
import type { BulkSendRepository } from '#shared/ports/repositories.ts';
import { copy } from './memory-table.ts';

/** Bulk sends in memory, with the DynamoDB adapter's semantics. */
export class MemoryBulkSendRepository implements BulkSendRepository {
  private readonly batches = new Map<string, { batch: BulkSend; chunks: BulkChunk[]; results: Map<number, BulkRowResult> }>();

  create(batch: BulkSend, chunks: readonly BulkChunk[]): Promise<void> {
    if (this.batches.has(batch.id)) return Promise.reject(new Error(`bulk send ${batch.id} exists`));
    this.batches.set(batch.id, { batch: copy(batch), chunks: copy([...chunks]), results: new Map() });
    return Promise.resolve();
  }

  get(appId: string, id: string): Promise<BulkSend | undefined> {
    const found = this.batches.get(id);
    return Promise.resolve(found?.batch.appId === appId ? copy(found.batch) : undefined);
  }

  chunk(batchId: string, index: number): Promise<BulkChunk | undefined> {
    const chunk = this.batches.get(batchId)?.chunks[index];
    return Promise.resolve(chunk ? copy(chunk) : undefined);
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

  dueForCheck(now: Date, limit: number): Promise<BulkSend[]> {
    const due = [...this.batches.values()].map((b) => b.batch).filter((b) => b.check && b.check.at <= now.toISOString());
    return Promise.resolve(due.sort((a, b) => (a.check?.at ?? '').localeCompare(b.check?.at ?? '')).slice(0, limit).map(copy));
  }

  saveCheck(batchId: string, check: BulkCheck | null): Promise<void> {
    const found = this.batches.get(batchId);
    if (!found) return Promise.reject(new Error(`no bulk send ${batchId}`));
    found.batch = { ...found.batch, check: copy(check) };
    return Promise.resolve();
  }
}
