import { csvRows, MAX_BULK_BYTES, MAX_BULK_COLUMNS, MAX_BULK_FIELD_BYTES, MAX_BULK_ROW_BYTES, MAX_BULK_ROWS, type CsvBatch } from '#shared/templates/bulk-send.ts';
import { UnsupportedMediaType, ValidationError } from '#shared/kernel/errors.ts';
import { startBulkSend } from '#shared/templates/bulk-send-actions.ts';
import { callerAsSender } from '#shared/console/envelope-sender.ts';
import type { BodyRule } from '#shared/http/body-rules.ts';
import { json, respond, route } from '#shared/http/endpoint.ts';
import { lambda } from '#shared/http/lambda.ts';
import { parseWith } from '#shared/http/validation.ts';
import { IdParams } from '#shared/http/common-schemas.ts';
import { BulkSendRequest } from '#shared/templates/template-schemas.ts';
import { BulkSendAcceptedResponse } from '#shared/templates/template-response-schemas.ts';

const CSV_TYPES = ['text/csv', 'application/csv'];

/** JSON `{ rows }`, or a CSV body with a header row; the batch's bounds are checked now, each row when its job runs. */
const rowsBody: BodyRule<CsvBatch> = {
  accepts: ['json', 'binary', 'empty'],
  read: (body) => {
    if (body.kind === 'json') return { rows: parseWith(BulkSendRequest, body.value).rows, prefillLabels: [] };
    if (body.kind === 'binary' && !CSV_TYPES.includes(body.contentType)) {
      throw new UnsupportedMediaType(`This endpoint does not accept ${body.contentType || 'a body without Content-Type'}; send JSON or text/csv`);
    }
    if (body.kind !== 'binary') throw ValidationError.at('body', 'must be JSON `{ rows }` or a text/csv body');
    const batch = csvRows(new TextDecoder('utf-8').decode(body.bytes));
    if (batch.rows.length === 0) throw ValidationError.at('rows', 'at least one row is required');
    return batch;
  },
};

export const definition = route({
  method: 'POST', path: '/v1/templates/{id}/bulk-send', auth: 'bearer', tag: 'Templates',
  operationId: 'bulkSend', summary: 'Send the template to many recipients, one envelope per row (background)',
  description: `JSON \`{ rows: [{ recipients, prefill?, subject? }] }\` or \`text/csv\` with a header row of \`<role>.name\`, \`<role>.email\`, \`<role>.phone\`, \`prefill.<label>\` columns; 1..${String(MAX_BULK_ROWS)} rows. `
    + `At most ${String(MAX_BULK_BYTES)} bytes of rows together (the CSV body, or the rows as JSON), ${String(MAX_BULK_ROW_BYTES)} bytes per row, ${String(MAX_BULK_FIELD_BYTES)} bytes per value `
    + `and ${String(MAX_BULK_COLUMNS)} columns (values of a JSON row); past a limit, or with a \`prefill.<label>\` column no field of the template has, the request is refused with 400 naming the limit and the row. `
    + 'Rows are made and sent in the background, each exactly once, even after a crash (a sweep re-queues a batch that makes no progress); a row that fails validation or the quota fails alone, '
    + 'as does a row whose job keeps failing (`processing_failed`), so every batch ends (see `GET /v1/bulk-sends/{id}`). '
    + 'Each envelope names as its sender the console user who started the batch (none for an API client\'s token).',
  params: IdParams,
  body: rowsBody,
  requestContent: {
    required: true,
    content: { ...json(BulkSendRequest), 'text/csv': { jsonSchema: { type: 'string', description: 'A header row, then one row per envelope (RFC 4180 quoting)' } } },
  },
  success: { status: 202, description: 'The batch, queued', content: json(BulkSendAcceptedResponse) },
  errors: {
    400: 'Not JSON rows or valid CSV, an unknown CSV column (or a prefill column no field has), no rows or more than 1,000, a row, value or batch past its size limit, or a template without documents',
    404: 'No such template for this application',
  },
  access: { table: 'write', secrets: ['JWT_SECRET'], jobs: true },
}, (deps) => async ({ params, body, principal }) => {
  const batch = await startBulkSend(deps, principal.appId, params.id, body.rows, body.prefillLabels, await callerAsSender(deps, principal) ?? null);
  return respond(BulkSendAcceptedResponse, { id: batch.id, templateId: batch.templateId, status: 'queued', total: batch.total }, 202);
});

export const handler = lambda(definition);
