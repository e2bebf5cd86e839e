/**
 * A bulk send's bounds, checked before anything is stored: bytes per value, per row and per batch, columns and rows,
 * each refused with a 400 that names the limit and the row; stored chunks are sized by bytes, so no table item can
 * pass DynamoDB's 400 KB whatever the rows hold.
 */
import { describe, expect, it } from 'vitest';
import { BULK_CHUNK_BYTES, BULK_CHUNK_ROWS, checkBulkRows, chunksOf, clipError, csvRows, MAX_BULK_BYTES, MAX_BULK_COLUMNS, MAX_BULK_ERROR_CHARS, MAX_BULK_FIELD_BYTES, MAX_BULK_ROW_BYTES, MAX_BULK_ROWS, type BulkRowInput } from '#shared/templates/bulk-send.ts';
import { ValidationError } from '#shared/kernel/errors.ts';

function refusal(fn: () => unknown): { path: string; message: string } {
  try {
    fn();
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    const [path = '', messages = []] = Object.entries(error.errors)[0] ?? [];
    return { path, message: messages.join('; ') };
  }
  throw new Error('expected a ValidationError');
}

const KB = 1024;
const row = (prefill: Record<string, string> = {}): BulkRowInput => ({ recipients: { signer: { name: 'A', email: 'a@example.com' } }, prefill });
const csv = (header: string[], rows: string[][]) => [header.join(','), ...rows.map((r) => r.join(','))].join('\n');

describe('a CSV batch past its bounds', () => {
  it('refuses a 1 MB value with the row number and the row limit, before parsing the rest', () => {
    const body = csv(['signer.name', 'signer.email', 'prefill.Company'], [['A', 'a@example.com', 'x'], ['B', 'b@example.com', 'y'.repeat(1024 * KB)]]);
    expect(refusal(() => csvRows(body))).toEqual({ path: 'row 2', message: `is longer than ${String(MAX_BULK_ROW_BYTES)} bytes: at most ${String(MAX_BULK_ROW_BYTES)} bytes per row` });
  });

  it('refuses a value past the value limit with its row and column', () => {
    const body = csv(['signer.name', 'prefill.Company'], [['A', 'x'], ['B', 'x'], ['C', 'é'.repeat(MAX_BULK_FIELD_BYTES / 2 + 1)]]);
    expect(refusal(() => csvRows(body))).toEqual({ path: 'row 3', message: `column "prefill.Company" is ${String(MAX_BULK_FIELD_BYTES + 2)} bytes: at most ${String(MAX_BULK_FIELD_BYTES)} bytes per value` });
  });

  it('refuses 10,000 columns, more columns than the limit, a body past the batch limit and 1,001 rows', () => {
    const wide = Array.from({ length: 10_000 }, (_, i) => `prefill.L${String(i)}`);
    expect(refusal(() => csvRows(csv(['signer.name', ...wide], [['A', ...wide.map(() => 'v')]]))).path).toBe('header');
    const columns = Array.from({ length: MAX_BULK_COLUMNS + 1 }, (_, i) => `prefill.${String(i)}`);
    expect(refusal(() => csvRows(csv(columns, [columns.map(() => '')])))).toEqual({ path: 'header', message: `has ${String(MAX_BULK_COLUMNS + 1)} columns: at most ${String(MAX_BULK_COLUMNS)}` });
    const big = csv(['signer.name', 'prefill.Company'], Array.from({ length: 600 }, () => ['A', 'v'.repeat(4000)]));
    expect(refusal(() => csvRows(big))).toEqual({ path: 'body', message: `is ${String(new TextEncoder().encode(big).length)} bytes: at most ${String(MAX_BULK_BYTES)} bytes per batch` });
    expect(refusal(() => csvRows(csv(['signer.name'], Array.from({ length: MAX_BULK_ROWS + 1 }, () => ['A']))))).toEqual({ path: 'rows', message: 'at most 1000 rows' });
  });

  it('names its prefill columns, so they are checked against the template up front', () => {
    expect(csvRows(csv(['signer.name', 'prefill.Company', 'prefill.City'], [['A', '', 'Lyon']])).prefillLabels).toEqual(['Company', 'City']);
  });
});

describe('JSON rows past their bounds', () => {
  it('refuse a value, a row, too many values and a batch past their limits, naming the row', () => {
    expect(refusal(() => { checkBulkRows([row(), row({ Company: 'x'.repeat(1024 * KB) })]); }))
      .toEqual({ path: 'row 2', message: `"prefill.Company" is ${String(1024 * KB)} bytes: at most ${String(MAX_BULK_FIELD_BYTES)} bytes per value` });
    const wide = Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`L${String(i)}`, 'v']));
    expect(refusal(() => { checkBulkRows([row(wide)]); })).toEqual({ path: 'row 1', message: `has more than ${String(MAX_BULK_COLUMNS)} values: at most ${String(MAX_BULK_COLUMNS)} per row` });
    const heavy = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`L${String(i)}`, 'v'.repeat(4000)]));
    expect(refusal(() => { checkBulkRows([row(), row(), row(heavy)]); }).path).toBe('row 3');
    expect(refusal(() => { checkBulkRows([row(), row(), row(heavy)]); }).message).toMatch(new RegExp(`bytes: at most ${String(MAX_BULK_ROW_BYTES)} bytes per row$`));
    const full = Object.fromEntries(Array.from({ length: 7 }, (_, i) => [`L${String(i)}`, 'v'.repeat(4000)]));
    const rows = Array.from({ length: 100 }, () => row(full));
    expect(refusal(() => { checkBulkRows(rows); })).toEqual({ path: 'row 75', message: `takes the batch past ${String(MAX_BULK_BYTES)} bytes: at most ${String(MAX_BULK_BYTES)} bytes per batch` });
    expect(refusal(() => { checkBulkRows([{ recipients: { signer: { name: { a: { b: 'c' } } } } }]); }).message).toContain('nested too deeply');
    expect(() => { checkBulkRows(Array.from({ length: 74 }, () => row(full))); }).not.toThrow();
  });
});

describe('stored chunks', () => {
  it('hold at most 20 rows and 128 KB, numbered from their first row, so even the largest batch fits one transaction', () => {
    const full = Object.fromEntries(Array.from({ length: 7 }, (_, i) => [`L${String(i)}`, 'v'.repeat(4000)]));
    const rows = Array.from({ length: 74 }, () => row(full));
    expect(() => { checkBulkRows(rows); }).not.toThrow();
    const chunks = chunksOf(rows);
    expect(chunks.map((c) => c.rows.length)).toEqual([4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 2]);
    expect(chunks.map((c) => c.first)).toEqual(chunks.map((_, i) => i * 4 + 1));
    for (const chunk of chunks) expect(new TextEncoder().encode(JSON.stringify(chunk.rows)).length).toBeLessThanOrEqual(BULK_CHUNK_BYTES);
    // The most chunks a batch within bounds can have: every row-limited chunk, and every byte-limited one nearly full.
    const worst = Math.ceil(MAX_BULK_ROWS / BULK_CHUNK_ROWS) + Math.floor(MAX_BULK_BYTES / (BULK_CHUNK_BYTES - MAX_BULK_ROW_BYTES));
    expect(worst + 1).toBeLessThanOrEqual(100);
  });

  it('cut a row\'s recorded error', () => {
    expect(clipError('e'.repeat(100_000))).toHaveLength(MAX_BULK_ERROR_CHARS + 1);
  });
});
