import { ConcurrentModification } from '#shared/kernel/errors.ts';
import type { Template } from '#shared/templates/templates.ts';
import type { TemplateListQuery, TemplateRepository } from '#shared/ports/repositories.ts';
import { byKey, copy, oversized } from './memory-table.ts';

/** Templates in memory, with the DynamoDB adapter's semantics (newest first by createdAt, then id; an item holds at most 400 KB). */
export class MemoryTemplateRepository implements TemplateRepository {
  private readonly templates = new Map<string, Template>();

  get(appId: string, id: string): Promise<Template | undefined> {
    const found = this.templates.get(id);
    return Promise.resolve(found?.appId === appId ? copy(found) : undefined);
  }

  create(template: Template): Promise<void> {
    const tooBig = oversized(template);
    if (tooBig) return Promise.reject(tooBig);
    if (this.templates.has(template.id)) return Promise.reject(new ConcurrentModification(template.id));
    this.templates.set(template.id, copy(template));
    return Promise.resolve();
  }

  save(template: Template): Promise<void> {
    const tooBig = oversized(template);
    if (tooBig) return Promise.reject(tooBig);
    if (this.templates.get(template.id)?.version !== template.version - 1) return Promise.reject(new ConcurrentModification(template.id));
    this.templates.set(template.id, copy(template));
    return Promise.resolve();
  }

  delete(appId: string, id: string): Promise<boolean> {
    if (this.templates.get(id)?.appId !== appId) return Promise.resolve(false);
    this.templates.delete(id);
    return Promise.resolve(true);
  }

  list(query: TemplateListQuery): Promise<{ data: Template[]; total: number }> {
    const all = [...this.templates.values()]
      .filter((t) => t.appId === query.appId && t.tenantId === query.tenantId)
      .sort((a, b) => byKey(`${b.createdAt}#${b.id}`, `${a.createdAt}#${a.id}`));
    const start = (query.page - 1) * query.pageSize;
    return Promise.resolve({ data: all.slice(start, start + query.pageSize).map(copy), total: all.length });
  }
}
