import type { SQSEvent } from 'aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import { createEnvelope, sendEnvelope } from '#shared/envelopes/envelope.ts';
import { recordSignature, signerOf } from '#shared/signing/signing.ts';
import { definition } from '#functions/workers/jobs.ts';

const { createHandler } = definition;
import { memoryDeps } from '#test/support/memory-deps.ts';
import { letterDocument, withPages, signerInput, testCtx } from '#test/support/domain.ts';

let deps: Awaited<ReturnType<typeof memoryDeps>>;
beforeAll(async () => { deps = await memoryDeps(); });

/** An envelope whose first group has signed, waiting for routing.advance to invite group 2. */
async function waitingForGroupTwo(): Promise<string> {
  const ctx = testCtx(new Date());
  const created = createEnvelope({
    id: deps.ids.next(), appId: 'app', tenantId: 't', subject: 'Jobs', createdBy: null, expiresInDays: 5, fieldOrigin: 'bottom-left',
    signers: [signerInput('one@example.com', 1), signerInput('two@example.com', 2)],
    fields: [0, 1].map((signerIndex) => ({ signerIndex, type: 'date' as const, page: 1, x: 1, y: 1, w: 10, h: 10, required: true, origin: 'bottom-left' as const })),
    ...withPages(letterDocument()),
  }, ctx);
  await deps.envelopes.commit(created);
  const sent = sendEnvelope(created.after, null, ctx).change;
  await deps.envelopes.commit(sent);
  const first = signerOf(sent.after, sent.after.signers[0]?.id ?? '');
  const signed = recordSignature(sent.after, first, { envelopeId: sent.after.id, signerId: first.id, submittedAt: ctx.now.toISOString(), fontLabel: null, values: [] }, ctx);
  await deps.envelopes.commit(signed.change);
  expect(signed.next).toBe('advance');
  return sent.after.id;
}

const eventFor = (body: unknown, messageId = 'm-1'): SQSEvent => ({
  Records: [{
    messageId, receiptHandle: 'r', body: JSON.stringify(body), attributes: { ApproximateReceiveCount: '1', SentTimestamp: '0', SenderId: 's', ApproximateFirstReceiveTimestamp: '0' },
    messageAttributes: {}, md5OfBody: '', eventSource: 'aws:sqs', eventSourceARN: 'arn:aws:sqs:us-east-1:0:jobs', awsRegion: 'us-east-1',
  }],
});

describe('the jobs worker', () => {
  it('invites the next group once, however often the same message is delivered', async () => {
    const id = await waitingForGroupTwo();
    const handler = createHandler(deps);
    const event = eventFor({ type: 'routing.advance', envelopeId: id, routingOrder: 2 });
    expect(await handler(event)).toEqual({ batchItemFailures: [] });
    expect(await handler(event)).toEqual({ batchItemFailures: [] });
    expect(deps.sent.emails.filter((m) => m.to === 'two@example.com')).toHaveLength(1);
    const envelope = await deps.envelopes.find(id);
    expect(envelope?.signers.map((s) => s.status)).toEqual(['signed', 'sent']);
    const invited = (await deps.envelopes.auditLog(id)).filter((e) => e.event === 'signer.invited');
    expect(invited).toHaveLength(2); // group 1 at send, group 2 once
  });

  it('reports only the failing record for retry, and drops unreadable ones', async () => {
    const failing = { ...deps, envelopes: { ...deps.envelopes, find: () => Promise.reject(new Error('throttled')) } };
    const handler = createHandler(failing);
    const event: SQSEvent = { Records: [...eventFor({ type: 'routing.advance', envelopeId: 'x', routingOrder: 2 }, 'bad').Records, ...eventFor('garbage', 'junk').Records] };
    expect(await handler(event)).toEqual({ batchItemFailures: [{ itemIdentifier: 'bad' }] });
  });
});
