import * as v from 'valibot';
import { beforeAll, describe, expect, it } from 'vitest';
import { removeDocument } from '#shared/envelopes/envelope-documents.ts';
import { createEnvelope, sendEnvelope, voidEnvelope, type EnvelopeChange } from '#shared/envelopes/envelope.ts';
import { WEBHOOK_EVENTS, type JobOutboxItem } from '#shared/notices/outbox.ts';
import { recordSignature, signerOf } from '#shared/signing/signing.ts';
import { queueChunks } from '#shared/templates/bulk-send-actions.ts';
import { commitChange } from '#shared/signing/signing-context.ts';
import { Job, JobMessage } from '#shared/background/job-schemas.ts';
import { memoryDeps } from '#test/support/memory-deps.ts';
import { letterDocument, signerInput, testCtx, withPages } from '#test/support/domain.ts';

let deps: Awaited<ReturnType<typeof memoryDeps>>;
beforeAll(async () => {
  deps = await memoryDeps();
  // Events go on the queue only for an application with a webhook that subscribes to them.
  await deps.webhooks.put({ id: 'w1', appId: 'app', url: 'https://example.com/hook', events: [...WEBHOOK_EVENTS], active: true, retrySchedule: 'A', secretSealed: null, createdAt: new Date().toISOString() });
});

/** A committed envelope of `signers` (email, routing order), sent unless `draft`; the changes are the real transitions. */
async function envelopeOf(signers: [string, number][], draft = false) {
  const ctx = testCtx(new Date());
  const created = createEnvelope({
    id: deps.ids.next(), appId: 'app', tenantId: 't', subject: 'Contracts', createdBy: null, expiresInDays: 5, fieldOrigin: 'bottom-left',
    signers: signers.map(([email, order]) => signerInput(email, order)),
    fields: signers.map((_, signerIndex) => ({ signerIndex, type: 'date' as const, page: 1, x: 1, y: 1, w: 10, h: 10, required: true, origin: 'bottom-left' as const })),
    ...withPages(letterDocument()),
  }, ctx);
  await commitChange(deps, created);
  if (draft) return created.after;
  const { change } = sendEnvelope(created.after, null, ctx);
  await commitChange(deps, change);
  return change.after;
}

async function sign(envelope: Awaited<ReturnType<typeof envelopeOf>>, index: number): Promise<EnvelopeChange> {
  const ctx = testCtx(new Date());
  const signer = signerOf(envelope, envelope.signers[index]?.id ?? '');
  const { change } = recordSignature(envelope, signer, { envelopeId: envelope.id, signerId: signer.id, submittedAt: ctx.now.toISOString(), fontLabel: null, values: [] }, ctx);
  await commitChange(deps, change);
  return change;
}

const variantsOf = (schema: typeof JobMessage | typeof Job) => schema.options.map((option) => option.entries.type.literal).sort();
/** As the queue carries it: JSON. */
const wire = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

describe('the jobs the domain produces and the schema the jobs worker parses them with', () => {
  it('agree on every queue message, field for field', async () => {
    const routed = await envelopeOf([['one@example.com', 1], ['two@example.com', 2]]);
    await sign(routed, 0); // routing.advance, webhook events
    const voided = await envelopeOf([['three@example.com', 1]]);
    await commitChange(deps, voidEnvelope(voided, 'changed terms', testCtx(new Date()))); // notice.send, retention.tag
    const draft = await envelopeOf([['four@example.com', 1]], true);
    await commitChange(deps, removeDocument(draft, draft.documents[0]?.id ?? '', testCtx(new Date()))); // blobs.delete
    await queueChunks(deps, { appId: 'app', id: 'bulk-1' }, [0, 1]); // bulk.rows

    expect([...new Set(deps.sent.jobs.map((job) => job.type))].sort()).toEqual(variantsOf(JobMessage));
    for (const job of deps.sent.jobs) expect(v.parse(JobMessage, wire(job))).toEqual(wire(job));
  });

  it('agree on the seal job, which starts the seal workflow instead of going on the queue', async () => {
    const envelope = await envelopeOf([['five@example.com', 1]]);
    const change = await sign(envelope, 0);
    const jobs = change.outbox.filter((item): item is JobOutboxItem => item.kind === 'job').map((item) => item.job);
    expect(jobs.map((job) => job.type)).toContain('seal');
    for (const job of jobs) expect(v.parse(Job, wire(job))).toEqual(wire(job));
    expect(variantsOf(Job)).toEqual([...variantsOf(JobMessage), 'seal'].sort());
    expect(deps.sent.sealing).toContain(envelope.id);
  });
});
