import { createHash } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import { ValidationError } from './errors.ts';

/**
 * Bulk send (ADDITIONS A5): one envelope per row of a template, made in the background. Rows are stored in chunks
 * beside the batch; each chunk is one job on the jobs queue. Every row's envelope has an id derived from the batch
 * and the row, and is created with `attribute_not_exists`: a redelivered job finds the row done (or loses the
 * create race) and makes no second envelope.
 */
export interface BulkSend {
  id: string;
  appId: string;
  templateId: string;
  tenantId: string;
  total: number;
  chunks: number;
  createdAt: string;
}

/** A row as given (JSON or CSV), checked only when its job runs: a bad row fails alone. */
export type BulkRowInput = Record<string, unknown>;

export type BulkRowStatus = 'sent' | 'failed';

/** What became of one row (1-based, in the order given): its envelope, or why it failed. */
export interface BulkRowResult {
  row: number;
  envelopeId: string | null;
  status: BulkRowStatus;
  error: string | null;
  message: string | null;
}

export const MAX_BULK_ROWS = 1000;
/** Rows per job: a job makes its rows' envelopes a few at a time, well within the jobs worker's timeout. */
export const BULK_CHUNK_ROWS = 20;
/** Rows of one chunk in flight at once. */
export const BULK_ROW_CONCURRENCY = 4;

export type BulkStatus = 'queued' | 'running' | 'completed' | 'completed_with_errors';

export function bulkStatus(total: number, sent: number, failed: number): BulkStatus {
  if (sent + failed >= total) return failed > 0 ? 'completed_with_errors' : 'completed';
  return sent + failed > 0 ? 'running' : 'queued';
}

export function chunksOf<T>(rows: readonly T[], size = BULK_CHUNK_ROWS): T[][] {
  const chunks: T[][] = [];
  for (let i = 0; i < rows.length; i += size) chunks.push(rows.slice(i, i + size));
  return chunks;
}

/** The row's envelope id: a UUID (version 8, RFC 9562) from the batch id and the row number, the same on every delivery. */
export function bulkEnvelopeId(batchId: string, row: number): string {
  const h = createHash('sha256').update(`bulk-send:${batchId}:${String(row)}`).digest('hex');
  const variant = ((parseInt(h.slice(16, 17), 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

const RECIPIENT_COLUMNS = ['name', 'email', 'phone', 'authMethod', 'locale'] as const;

/**
 * A CSV body as rows: a header row of `<role>.name`, `<role>.email`, `<role>.phone` (also `.authMethod`, `.locale`),
 * `prefill.<label>` and `subject` columns, then one row per envelope. Quoted values may hold commas, quotes and line
 * breaks (RFC 4180). An empty cell is left out. An unknown column, or a CSV that cannot be parsed, is a 400.
 */
export function csvRows(text: string): BulkRowInput[] {
  let records: string[][];
  try {
    records = parse(text.replace(/^\uFEFF/, ''), { skip_empty_lines: true, relax_column_count: false, trim: true });
  } catch (error) {
    throw ValidationError.at('body', `is not valid CSV: ${(error as Error).message}`);
  }
  const [header, ...rows] = records;
  if (!header) throw ValidationError.at('body', 'is empty: a header row and at least one row are required');
  const columns = header.map((name, i) => {
    const prefill = /^prefill\.(.+)$/.exec(name);
    if (prefill?.[1]) return { kind: 'prefill' as const, label: prefill[1] };
    if (name === 'subject') return { kind: 'subject' as const };
    const recipient = /^(.+)\.([A-Za-z]+)$/.exec(name);
    const attribute = recipient?.[2] as (typeof RECIPIENT_COLUMNS)[number] | undefined;
    if (recipient?.[1] && attribute && RECIPIENT_COLUMNS.includes(attribute)) return { kind: 'recipient' as const, role: recipient[1], attribute };
    throw ValidationError.at(`header[${String(i)}]`, `"${name}" is not a column: use <role>.name, <role>.email, <role>.phone, prefill.<label> or subject`);
  });
  if (rows.length > MAX_BULK_ROWS) throw ValidationError.at('rows', `at most ${String(MAX_BULK_ROWS)} rows`);
  return rows.map((cells) => {
    const recipients: Record<string, Record<string, string>> = {};
    const prefill: Record<string, string> = {};
    const row: BulkRowInput = { recipients, prefill };
    columns.forEach((column, i) => {
      const cell = cells[i] ?? '';
      if (cell === '') return;
      if (column.kind === 'prefill') prefill[column.label] = cell;
      else if (column.kind === 'subject') row.subject = cell;
      else (recipients[column.role] ??= {})[column.attribute] = cell;
    });
    return row;
  });
}
