/**
 * Figure 7: a bulk send (decision 35) on the local stack: a one-role template, then 1,000 JSON rows (100 with
 * `--quick`) posted in one request and polled every 100 ms until the batch is completed. Rows per second from the
 * 202 to the last row's envelope sent (each row: a copy of the template's PDF, the envelope created and sent in one
 * transaction, its invitation email), through the jobs queue and its consumer as deployed (chunks of 20 rows).
 */
import { makePdf } from '#test/support/pdfs.ts';
import { fmt, sleep, type Row, type RunSize } from './lib.ts';
import { FALLBACK_SEND_RATE } from '#shared/adapters/aws/ses-mailer.ts';
import { startBenchStack, type BenchStack } from './stack.ts';

const api = (handler: string) => `bulk|functions/api/${handler}.ts`;

interface BulkRun { rows: number; seconds: number; acceptedMs: number; state: { status: string; sent: number; failed: number } }

export async function bulkSendFigure(stack: BenchStack, size: RunSize): Promise<Row[]> {
  const { rows, seconds, acceptedMs, state } = await bulkSend(stack, size);
  return [
    { figure: '7 Bulk send', what: `${String(rows)} rows, 202 to the last envelope sent`, ours: `${seconds.toFixed(1)} s`, note: `accepted in ${fmt.ms(acceptedMs)}; ${String(state.sent)} sent, ${String(state.failed)} failed` },
    { figure: '7 Bulk send', what: 'rows per second (create + send + invitation each)', ours: fmt.rate(rows / seconds), note: 'chunks of 20 rows per job, 4 rows of a chunk at once; the local queue poller stands in for the SQS event source; mail not paced (the local SES emulator has no rate)' },
  ];
}

/**
 * The same bulk send on a stack of its own whose mail is paced to SES's default production rate, as the service paces
 * it on AWS: that rate is the floor of rows per second (one invitation per row).
 */
export async function pacedBulkSendFigure(size: RunSize): Promise<Row[]> {
  const stack = await startBenchStack({ sesSendRate: FALLBACK_SEND_RATE });
  try {
    const { rows, seconds, state } = await bulkSend(stack, size);
    const rate = rows / seconds;
    return [{
      figure: '7 Bulk send', what: `${String(rows)} rows with mail paced to SES's rate (${String(FALLBACK_SEND_RATE)}/s, a new production account's)`,
      ours: fmt.rate(rate), other: `pacing limit ${fmt.rate(FALLBACK_SEND_RATE)}`, ratio: fmt.ratio(rate / FALLBACK_SEND_RATE),
      note: `${seconds.toFixed(1)} s; ${String(state.sent)} sent, ${String(state.failed)} failed; 1.00x is the most pacing allows (the first second's burst aside); no target (reported)`,
    }];
  } finally {
    await stack.stop();
  }
}

async function bulkSend(stack: BenchStack, size: RunSize): Promise<BulkRun> {
  const rows = size.quick ? 100 : 1000;
  const form = new FormData();
  form.append('data', JSON.stringify({
    tenantId: 'bench-bulk', name: 'Bench NDA', subject: 'Bench NDA', roles: [{ role: 'signer', authMethod: 'none' }],
    fields: [{ role: 'signer', type: 'signature', page: 1, x: 72, y: 72, w: 180, h: 40 }, { role: 'signer', type: 'text', page: 1, x: 72, y: 300, w: 200, h: 20, label: 'Company' }],
  }));
  form.append('file', new Blob([await makePdf({ pages: 2 })], { type: 'application/pdf' }), 'nda.pdf');
  const template = await stack.call<{ id: string }>('POST', '/v1/templates', api('create-template'), { body: form });
  if (template.status !== 201) throw new Error(`template: ${String(template.status)} ${JSON.stringify(template.body)}`);
  const body = { rows: Array.from({ length: rows }, (_, i) => ({ recipients: { signer: { name: `Row ${String(i)}`, email: `bulk.${String(i)}@example.com` } }, prefill: { Company: `Company ${String(i)}` } })) };
  const start = performance.now();
  const accepted = await stack.call<{ id: string }>('POST', `/v1/templates/${template.body.id}/bulk-send`, api('bulk-send'), { body });
  if (accepted.status !== 202) throw new Error(`bulk send: ${String(accepted.status)} ${JSON.stringify(accepted.body)}`);
  let state = { status: 'queued', sent: 0, failed: 0 };
  while (!state.status.startsWith('completed')) {
    if (performance.now() - start > 30 * 60_000) throw new Error(`bulk send not done after 30 minutes: ${JSON.stringify(state)}`);
    await sleep(100);
    state = (await stack.call<typeof state>('GET', `/v1/bulk-sends/${accepted.body.id}`, api('get-bulk-send'))).body;
  }
  return { rows, seconds: (performance.now() - start) / 1000, acceptedMs: accepted.ms, state };
}
