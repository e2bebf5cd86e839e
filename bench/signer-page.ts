/**
 * Figure 10, the signer's first page: a signer opens their link for the first time in headless Chromium (Debian's,
 * through playwright-core), ticks the consent as soon as it shows, and the first page of the document is drawn
 * (the `sign:first-page` mark). Measured with every signing function warm and with every one cold; and the cold
 * functions the page waits for one after another (target: at most 2).
 *
 * Cold, locally: the local stack runs the functions in this process, always warm. Each signing function's cold start
 * is measured instead from its own bundle in fresh Node processes (test/support/cold-start.ts: init plus its first
 * event, as Lambda bills them), and the first request of a visit to each function is held that long before it goes
 * to the stack. A page that asks two functions at once pays both cold starts side by side; one that asks them in
 * turn pays them in a row. Lambda's own sandbox start comes on top in AWS and is not modelled.
 */
import { chromium, type Browser, type Route } from 'playwright-core';
import { measureBundles } from '#test/support/cold-start.ts';
import { coldChain, recordSigningCalls, signingFunction } from '#test/support/request-chain.ts';
import { buildWeb } from '../web/build.ts';
import { textPdf } from './editor.ts';
import { fmt, median, sleep, type Row, type RunSize } from './lib.ts';
import { startBenchStack, type BenchStack } from './stack.ts';

/** The functions a first visit may call, by the name signingFunction gives their requests. */
const FUNCTIONS: Record<string, string> = {
  'GET context': 'functions/api/signing-context.ts',
  'GET document': 'functions/api/signing-document.ts',
  'POST consent': 'functions/api/consent.ts',
};
const TARGET_COLD_IN_A_ROW = 2;

/** A sent envelope whose one signer (no code, not yet consented) has never opened the link. */
async function firstVisitLink(stack: BenchStack, pdf: Uint8Array): Promise<string> {
  const form = new FormData();
  form.append('data', JSON.stringify({
    tenantId: 'bench', subject: 'Signer bench', signers: [{ name: 'Ada', email: 'ada@example.com', authMethod: 'none' }],
    fields: [{ signerIndex: 0, type: 'signature', page: 1, x: 72, y: 72, w: 180, h: 40 }],
  }));
  form.append('file', new Blob([pdf], { type: 'application/pdf' }), 'contract.pdf');
  const created = await stack.call<{ id: string }>('POST', '/v1/envelopes', 'signer|functions/api/create-envelope.ts', { body: form });
  if (created.status !== 201) throw new Error(`create: ${String(created.status)}`);
  const sent = await stack.call<{ signers: { signingUrl: string | null }[] }>('POST', `/v1/envelopes/${created.body.id}/send`, 'signer|functions/api/send-envelope.ts', { body: {} });
  const url = sent.body.signers[0]?.signingUrl;
  if (sent.status !== 200 || !url) throw new Error(`send: ${String(sent.status)}`);
  return url;
}

interface Visit { firstPageMs: number; coldInARow: number; chain: string }

/** One first visit in a fresh browser context; with `coldMs`, each function's first request waits its cold start. */
async function visit(browser: Browser, link: string, coldMs: Record<string, number> | null): Promise<Visit> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    const page = await context.newPage();
    const started = new Set<string>();
    await page.route((url) => url.pathname.startsWith('/v1/signing/'), async (route: Route) => {
      const fn = signingFunction(route.request());
      if (coldMs && fn && !started.has(fn)) {
        started.add(fn);
        await sleep(coldMs[fn] ?? 0);
      }
      await route.continue();
    });
    const calls = recordSigningCalls(page);
    await page.goto(link);
    const agree = page.locator('.consent-bar input[type="checkbox"]');
    await agree.check({ timeout: 60_000 });
    await page.locator('.consent-bar button[type="submit"]').click();
    let mark: { at: number; epoch: number } | null = null;
    for (let waited = 0; !mark && waited < 60_000; waited += 25) {
      mark = await page.evaluate<{ at: number; epoch: number } | null>(
        "(() => { const [m] = performance.getEntriesByName('sign:first-page'); return m ? { at: m.startTime, epoch: performance.timeOrigin + m.startTime } : null; })()");
      if (!mark) await sleep(25);
    }
    if (!mark) throw new Error('the signing page drew no first page within 60 s');
    const chain = coldChain(calls, mark.epoch);
    return { firstPageMs: mark.at, coldInARow: chain.length, chain: chain.map((c) => c.fn).join(' -> ') };
  } finally {
    await context.close();
  }
}

/** Each signing function's cold start (init + first event of its bundle in a fresh process), median over the rounds. */
async function coldStarts(stack: BenchStack, rounds: number): Promise<Record<string, number>> {
  const samples: Record<string, number[]> = {};
  for (let round = 0; round < rounds; round++) {
    const measured = await measureBundles({ handlers: Object.values(FUNCTIONS), dynamodbEndpoint: stack.local.endpoints.dynamodb });
    for (const m of measured) (samples[m.handler] ??= []).push(m.initMs + m.firstEventMs);
  }
  return Object.fromEntries(Object.entries(FUNCTIONS).map(([fn, handler]) => [fn, median(samples[handler] ?? [])]));
}

export async function signerFigure(size: RunSize): Promise<Row[]> {
  await buildWeb({ ifStale: true, quiet: true });
  const stack = await startBenchStack();
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu'] });
  try {
    const cold = await coldStarts(stack, Math.min(size.coldStarts, 3));
    const pdf = await textPdf(3);
    const runs = Math.min(size.runs, 7);
    const results: Record<'warm' | 'cold', Visit[]> = { warm: [], cold: [] };
    for (let run = 0; run < size.warmup + runs; run++) {
      // Alternated, each on a new envelope: a first visit every time
      for (const mode of run % 2 === 0 ? (['warm', 'cold'] as const) : (['cold', 'warm'] as const)) {
        const result = await visit(browser, await firstVisitLink(stack, pdf), mode === 'cold' ? cold : null);
        if (run >= size.warmup) results[mode].push(result);
      }
    }
    const n = `median of ${String(runs)}, 3-page PDF, consent ticked at once`;
    const inARow = Math.max(...results.cold.map((r) => r.coldInARow));
    const coldNote = Object.entries(cold).map(([fn, ms]) => `${fn} ${fmt.ms(ms)}`).join(', ');
    return [
      { figure: '10 Signer', what: `first visit to first page drawn, functions warm (${n})`, ours: fmt.ms(median(results.warm.map((r) => r.firstPageMs))) },
      {
        figure: '10 Signer', what: `first visit to first page drawn, every function cold (${n})`, ours: fmt.ms(median(results.cold.map((r) => r.firstPageMs))),
        note: `cold starts held before each function's first request (init + first event of its bundle, fresh processes): ${coldNote}`,
      },
      {
        figure: '10 Signer', what: 'cold functions the first page waits for one after another (worst run)', ours: String(inARow),
        other: `target <= ${String(TARGET_COLD_IN_A_ROW)}`, ratio: inARow <= TARGET_COLD_IN_A_ROW ? 'met' : 'missed',
        note: `critical path: ${results.cold.find((r) => r.coldInARow === inARow)?.chain ?? ''}`,
      },
    ];
  } finally {
    await browser.close();
    await stack.stop();
  }
}
