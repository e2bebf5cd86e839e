import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resendDelivery, rotateWebhookSecret } from '#shared/webhooks/webhook-actions.ts';
import type { Delivery, Webhook } from '#shared/webhooks/webhooks.ts';
import { memoryDeps } from '#test/support/memory-deps.ts';
import { Receiver, type Received } from '#test/support/receiver.ts';

const run = promisify(execFile);
const DIR = 'examples/webhook-verify';
const OLD = 'whsec-docs-old-0123456789';

const receiver = new Receiver();
let got: Received;
let fresh: string;
const work = mkdtempSync(join(tmpdir(), 'verify-examples-'));

/** A real delivery: signed by the service while a rotation overlaps the old secret with the new one. */
beforeAll(async () => {
  const url = await receiver.start();
  const deps = await memoryDeps();
  const now = deps.clock.now().toISOString();
  const webhook: Webhook = {
    id: deps.ids.next(), appId: deps.ids.next(), url, events: ['envelope.completed'], active: true, retrySchedule: 'B', secretSealed: await deps.secrets.seal(OLD), createdAt: now,
  };
  await deps.webhooks.put(webhook);
  fresh = (await rotateWebhookSecret(deps, webhook.appId, webhook.id, { secret: null, expireCurrentInHours: 1 })).secret;
  const delivery: Delivery = {
    id: deps.ids.next(), appId: webhook.appId, webhookId: webhook.id, eventId: deps.ids.next(), event: 'envelope.completed', envelopeId: deps.ids.next(),
    body: JSON.stringify({ id: 'evt', event: 'envelope.completed', data: { subject: 'Bail – été ✓' } }),
    status: 'pending', attempts: 0, lastStatusCode: null, lastError: null, lastResponse: null, createdAt: now, lastAttemptAt: null, nextAttemptAt: null, deliveredAt: null,
  };
  await deps.webhooks.createDelivery(delivery);
  await resendDelivery(deps, webhook.appId, webhook.id, delivery.id);
  got = receiver.received.at(-1) ?? (() => { throw new Error('no delivery received'); })();
});
afterAll(async () => { await receiver.stop(); });

/** Runs one snippet on a body file and the delivery's headers; its verdict and exit code. */
async function verdict(command: string[], body: string, secrets: string[], nowSeconds?: number): Promise<{ v2: boolean; bodyOnly: boolean; exit: number }> {
  const file = join(work, `${String(Math.random()).slice(2)}.json`);
  writeFileSync(file, body);
  const args = [...command.slice(1), file, String(got.headers['x-service-signature-v2']), String(got.headers['x-service-signature']), ...secrets];
  const env = { ...process.env, NOW_SECONDS: nowSeconds === undefined ? '' : String(nowSeconds) };
  try {
    const { stdout } = await run(command[0] ?? '', args, { env });
    return { ...(JSON.parse(stdout) as { v2: boolean; bodyOnly: boolean }), exit: 0 };
  } catch (error) {
    const e = error as { stdout: string; code: number };
    return { ...(JSON.parse(e.stdout) as { v2: boolean; bodyOnly: boolean }), exit: e.code };
  }
}

const snippets: [string, string[]][] = [
  ['Node', ['node', `${DIR}/verify.mjs`]], ['Python 3', ['python3', `${DIR}/verify.py`]], ['Go', ['go', 'run', `${DIR}/verify.go`]],
];

describe.each(snippets)('the %s verification snippet of docs/webhooks.md, run on a real delivery', (_name, command) => {
  it('is in the guide verbatim', () => {
    expect(readFileSync('docs/webhooks.md', 'utf8')).toContain(readFileSync(command.at(-1) ?? '', 'utf8'));
  });

  it('accepts it with either secret of the rotation (the body-only header: the new one only)', async () => {
    expect(await verdict(command, got.body, [fresh])).toEqual({ v2: true, bodyOnly: true, exit: 0 });
    expect(await verdict(command, got.body, [OLD])).toEqual({ v2: true, bodyOnly: false, exit: 0 });
  });

  it('refuses another secret, a changed body, and the same delivery replayed past the tolerance', async () => {
    const stamp = Number(got.headers['x-service-timestamp']);
    expect(await verdict(command, got.body, ['whsec-someone-else-0123'])).toEqual({ v2: false, bodyOnly: false, exit: 1 });
    expect(await verdict(command, got.body.replace('été', 'ete'), [fresh])).toEqual({ v2: false, bodyOnly: false, exit: 1 });
    expect((await verdict(command, got.body, [fresh], stamp + 300)).v2).toBe(true);
    expect(await verdict(command, got.body, [fresh], stamp + 301)).toEqual({ v2: false, bodyOnly: true, exit: 1 });
  });
});
