import { createHash } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import { ValidationError } from '../kernel/errors.ts';
import type { EnvelopeSender } from '../console/branding.ts';

/**
 * Bulk send: one envelope per row of a template, made in the background. Rows are stored in chunks beside the batch,
 * in one transaction with it; each chunk is one job on the jobs queue. Every row's envelope has an id derived from the
 * batch and the row, and is created with `attribute_not_exists`: a redelivered job finds the row done (or loses the
 * create race) and makes no second envelope. The batch carries its next check: the bulk sweep re-queues the chunks
 * of a batch that made no progress (a crash before its jobs were queued, jobs lost or dead-lettered), and after
 * MAX_BULK_REDRIVES such checks fails the rows left, so every batch ends.
 */
export interface BulkSend {
  id: string;
  appId: string;
  templateId: string;
  tenantId: string;
  total: number;
  chunks: number;
  createdAt: string;
  /** Who every envelope of the batch names as its sender: the console user who started it (none for an API client). */
  sender?: EnvelopeSender | null | undefined;
  /** The sweep's next look at the unfinished batch; null once every row has a result. */
  check: BulkCheck | null;
}

export interface BulkCheck {
  /** When the sweep looks next (ISO). */
  at: string;
  /** Rows with a result at the last look: a batch with no more since then has stalled. */
  seen: number;
  /** Times its unfinished chunks were queued again. */
  redrives: number;
}

/** Minutes from the batch's start, or from progress seen, to the sweep's next look. */
export const BULK_CHECK_MINUTES = 5;
/** Minutes to wait after the n-th re-drive (1-based); after the last, a batch still stalled fails the rows left. */
export const BULK_REDRIVE_MINUTES = [5, 15, 30, 60, 120] as const;
export const MAX_BULK_REDRIVES = BULK_REDRIVE_MINUTES.length;

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
/** A batch's rows together (the CSV body, or the rows as JSON): the batch and its chunks are stored in one transaction. */
export const MAX_BULK_BYTES = 2 * 1024 * 1024;
/** One row (a CSV record, or the row as JSON). */
export const MAX_BULK_ROW_BYTES = 32 * 1024;
/** One value of a row (a CSV cell). */
export const MAX_BULK_FIELD_BYTES = 4 * 1024;
/** Columns of a CSV header, or values of a JSON row. */
export const MAX_BULK_COLUMNS = 300;
/** A row's recorded error message is cut to this many characters. */
export const MAX_BULK_ERROR_CHARS = 500;
/** Rows per job: a job makes its rows' envelopes a few at a time, well within the jobs worker's timeout. */
export const BULK_CHUNK_ROWS = 20;
/**
 * Bytes of rows per stored chunk: far below DynamoDB's 400 KB item, whatever the rows. With rows of at most
 * MAX_BULK_ROW_BYTES and a batch of at most MAX_BULK_BYTES, a batch has at most 50 + 2 MB / 96 KB = 72 chunks, so
 * the batch and its chunks fit DynamoDB's 100 items and 4 MB of one transaction.
 */
export const BULK_CHUNK_BYTES = 128 * 1024;
/** Rows of one chunk in flight at once. */
export const BULK_ROW_CONCURRENCY = 4;

export type BulkStatus = 'queued' | 'running' | 'completed' | 'completed_with_errors';

export function bulkStatus(total: number, sent: number, failed: number): BulkStatus {
  if (sent + failed >= total) return failed > 0 ? 'completed_with_errors' : 'completed';
  return sent + failed > 0 ? 'running' : 'queued';
}

/** A stored chunk: its rows, the first numbered `first` (1-based). */
export interface BulkChunk {
  first: number;
  rows: BulkRowInput[];
}

export const byteLength = (text: string) => Buffer.byteLength(text, 'utf8');

/** Rows in order, at most `maxRows` and `maxBytes` (as JSON) a chunk; a row alone may reach `maxBytes`. */
export function chunksOf(rows: readonly BulkRowInput[], maxRows = BULK_CHUNK_ROWS, maxBytes = BULK_CHUNK_BYTES): BulkChunk[] {
  const chunks: BulkChunk[] = [];
  let bytes = 0;
  rows.forEach((row, i) => {
    const size = byteLength(JSON.stringify(row)) + 1;
    const last = chunks.at(-1);
    if (last && last.rows.length < maxRows && bytes + size <= maxBytes) {
      last.rows.push(row);
      bytes += size;
    } else {
      chunks.push({ first: i + 1, rows: [row] });
      bytes = size;
    }
  });
  return chunks;
}

const rowError = (row: number, message: string) => ValidationError.at(`row ${String(row)}`, message);
export const clip = (text: string, max = 100) => (text.length > max ? `${text.slice(0, max)}…` : text);

/** Counts a JSON row's values and checks each string's size; answers the count. Rows hold objects three deep at most. */
function valuesOf(value: unknown, path: string, row: number, depth: number): number {
  if (typeof value === 'string') {
    const bytes = byteLength(value);
    if (bytes > MAX_BULK_FIELD_BYTES) throw rowError(row, `"${clip(path)}" is ${String(bytes)} bytes: at most ${String(MAX_BULK_FIELD_BYTES)} bytes per value`);
    return 1;
  }
  if (value === null || typeof value !== 'object') return 1;
  if (depth >= 4) throw rowError(row, `"${clip(path)}" is nested too deeply`);
  let count = 0;
  for (const [key, inner] of Object.entries(value)) {
    count += valuesOf(inner, path ? `${path}.${key}` : key, row, depth + 1);
    if (count > MAX_BULK_COLUMNS) throw rowError(row, `has more than ${String(MAX_BULK_COLUMNS)} values: at most ${String(MAX_BULK_COLUMNS)} per row`);
  }
  return count;
}

/**
 * The batch's bounds, checked before anything is stored (a 400 names the limit and the row): 1..MAX_BULK_ROWS rows,
 * each at most MAX_BULK_ROW_BYTES as JSON with at most MAX_BULK_COLUMNS values of at most MAX_BULK_FIELD_BYTES,
 * MAX_BULK_BYTES together. What a row says is checked when its job runs: a bad row fails alone.
 */
export function checkBulkRows(rows: readonly BulkRowInput[]): void {
  if (rows.length === 0) throw ValidationError.at('rows', 'at least one row is required');
  if (rows.length > MAX_BULK_ROWS) throw ValidationError.at('rows', `at most ${String(MAX_BULK_ROWS)} rows`);
  let total = 0;
  rows.forEach((input, i) => {
    const row = i + 1;
    valuesOf(input, '', row, 0);
    const bytes = byteLength(JSON.stringify(input));
    if (bytes > MAX_BULK_ROW_BYTES) throw rowError(row, `is ${String(bytes)} bytes: at most ${String(MAX_BULK_ROW_BYTES)} bytes per row`);
    total += bytes;
    if (total > MAX_BULK_BYTES) throw rowError(row, `takes the batch past ${String(MAX_BULK_BYTES)} bytes: at most ${String(MAX_BULK_BYTES)} bytes per batch`);
  });
}

/** A row's recorded error message, cut to MAX_BULK_ERROR_CHARS. */
export const clipError = (message: string) => clip(message, MAX_BULK_ERROR_CHARS);

/** The row's envelope id: a UUID (version 8, RFC 9562) from the batch id and the row number, the same on every delivery. */
export function bulkEnvelopeId(batchId: string, row: number): string {
  const h = createHash('sha256').update(`bulk-send:${batchId}:${String(row)}`).digest('hex');
  const variant = ((parseInt(h.slice(16, 17), 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

const RECIPIENT_COLUMNS = ['name', 'email', 'phone', 'authMethod', 'locale'] as const;

/** A CSV body's rows, and the labels its `prefill.<label>` columns name (checked against the template up front). */
export interface CsvBatch {
  rows: BulkRowInput[];
  prefillLabels: string[];
}

function parseCsv(text: string): string[][] {
  if (byteLength(text) > MAX_BULK_BYTES) throw ValidationError.at('body', `is ${String(byteLength(text))} bytes: at most ${String(MAX_BULK_BYTES)} bytes per batch`);
  try {
    const records: string[][] = parse(text, { bom: true, skip_empty_lines: true, relax_column_count: false, trim: true, max_record_size: MAX_BULK_ROW_BYTES });
    return records;
  } catch (error) {
    const { code, records } = error as { code?: string; records?: number };
    if (code === 'CSV_MAX_RECORD_SIZE') {
      const limit = `at most ${String(MAX_BULK_ROW_BYTES)} bytes per row`;
      throw records ? rowError(records, `is longer than ${String(MAX_BULK_ROW_BYTES)} bytes: ${limit}`)
        : ValidationError.at('header', `is longer than ${String(MAX_BULK_ROW_BYTES)} bytes: ${limit} and ${String(MAX_BULK_COLUMNS)} columns`);
    }
    throw ValidationError.at('body', `is not valid CSV: ${clip((error as Error).message, 300)}`);
  }
}

/**
 * A CSV body as rows: a header row of `<role>.name`, `<role>.email`, `<role>.phone` (also `.authMethod`, `.locale`),
 * `prefill.<label>` and `subject` columns, then one row per envelope. Quoted values may hold commas, quotes and line
 * breaks (RFC 4180). An empty cell is left out. An unknown column, a CSV that cannot be parsed, or one past the
 * batch's bounds (bytes, row and cell sizes, columns, rows) is a 400 naming the limit and the row.
 */
export function csvRows(text: string): CsvBatch {
  const [header, ...rows] = parseCsv(text);
  if (!header) throw ValidationError.at('body', 'is empty: a header row and at least one row are required');
  if (header.length > MAX_BULK_COLUMNS) throw ValidationError.at('header', `has ${String(header.length)} columns: at most ${String(MAX_BULK_COLUMNS)}`);
  const columns = header.map((name, i) => {
    const prefill = /^prefill\.(.+)$/.exec(name);
    if (prefill?.[1]) return { kind: 'prefill' as const, label: prefill[1] };
    if (name === 'subject') return { kind: 'subject' as const };
    const recipient = /^(.+)\.([A-Za-z]+)$/.exec(name);
    const attribute = recipient?.[2] as (typeof RECIPIENT_COLUMNS)[number] | undefined;
    if (recipient?.[1] && attribute && RECIPIENT_COLUMNS.includes(attribute)) return { kind: 'recipient' as const, role: recipient[1], attribute };
    throw ValidationError.at(`header[${String(i)}]`, `"${clip(name)}" is not a column: use <role>.name, <role>.email, <role>.phone, prefill.<label> or subject`);
  });
  if (rows.length > MAX_BULK_ROWS) throw ValidationError.at('rows', `at most ${String(MAX_BULK_ROWS)} rows`);
  const parsed = rows.map((cells, r) => {
    const recipients: Record<string, Record<string, string>> = {};
    const prefill: Record<string, string> = {};
    const row: BulkRowInput = { recipients, prefill };
    columns.forEach((column, i) => {
      const cell = cells[i] ?? '';
      if (cell === '') return;
      const bytes = byteLength(cell);
      if (bytes > MAX_BULK_FIELD_BYTES) {
        throw rowError(r + 1, `column "${clip(header[i] ?? '')}" is ${String(bytes)} bytes: at most ${String(MAX_BULK_FIELD_BYTES)} bytes per value`);
      }
      if (column.kind === 'prefill') prefill[column.label] = cell;
      else if (column.kind === 'subject') row.subject = cell;
      else (recipients[column.role] ??= {})[column.attribute] = cell;
    });
    return row;
  });
  return { rows: parsed, prefillLabels: columns.flatMap((c) => (c.kind === 'prefill' ? [c.label] : [])) };
}
