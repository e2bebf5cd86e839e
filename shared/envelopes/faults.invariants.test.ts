/**
 * Faults injected through the ports, on the real engines: a failing key (KMS), a failing mailer (SES), a crash
 * between commit and dispatch or between staging and commit, lost optimistic-lock races. Whatever fails, the work
 * is done once it recovers, or it is given up visibly (an audit event and an alarm line): nothing is silently lost.
 */
import { describe, expect, it } from 'vitest';
import { workflows } from '#infra/routes.ts';
import { loadStateMachine } from '#local/workflow-runner.ts';
import { createEnvelope as newEnvelope, sendEnvelope } from '#shared/envelopes/envelope.ts';
import { ConcurrentModification } from '#shared/kernel/errors.ts';
import type { EnvelopeRepository } from '#shared/ports/repositories.ts';
import type { Logger } from '#shared/ports/services.ts';
import { stageBlobs, sweepAbandonedStages } from './blob-actions.ts';
import { sweepOutbox, transactById } from '../signing/signing-context.ts';
import { sendEnvelopeNow } from './envelope-actions.ts';
import { createEnvelope } from './upload-actions.ts';
import { parseWith } from '#shared/http/validation.ts';
import { CreateEnvelopeRequest } from '#shared/envelopes/envelope-schemas.ts';
import { makePdf } from '#test/support/pdfs.ts';
import { sweepStalledSeals } from '../sealing/sealing-actions.ts';
import { signDocument } from '../signing/signing-actions.ts';
import { withNewLinks } from './routing-actions.ts';
import { functionDeps } from '#test/support/function-deps.ts';
import { letterDocument, withPages, signerInput, testCtx } from '#test/support/domain.ts';
import { consentedEnvelope, expectInvariants, pngOf, type TestDeps } from '#test/support/invariants.ts';

const META = { ip: '198.51.100.4', userAgent: 'fault' };
const MINUTE = 60_000;

/** A service clock the test moves. */
function movableClock(start = new Date()) {
  let now = start;
  return { clock: { now: () => now }, advance: (ms: number) => { now = new Date(now.getTime() + ms); } };
}

/** A logger that keeps what it was told, so a test can see the alarm lines. */
function recordingLogger() {
  const lines: { level: string; message: string; fields: Record<string, unknown> }[] = [];
  const at = (level: string) => (message: string, fields: Record<string, unknown> = {}) => { lines.push({ level, message, fields }); };
  const logger: Logger = { info: at('info'), warn: at('warn'), error: at('error') };
  return { logger, alarms: () => lines.filter((l) => l.fields.alarm === true) };
}

/** Runs the seal workflow's ASL (the file CDK deploys) in process against `deps`, as the local runtime does. */
async function sealWorkflow(deps: TestDeps) {
  const def = workflows.find((w) => w.name === 'seal-envelope');
  if (!def) throw new Error('no seal workflow');
  const run = await loadStateMachine(process.cwd(), def, () => deps, { now: () => deps.clock.now(), until: () => Promise.resolve(), busy: () => undefined }, 1);
  return (envelopeId: string, round: number) => run({ envelopeId, round }).then(() => 'succeeded', (error: unknown) => `failed: ${(error as Error).message}`);
}

async function signAll(deps: TestDeps, envelope: { tokens: string[]; fields: string[] }) {
  for (const [i, token] of envelope.tokens.entries()) {
    await signDocument(deps, token, { fields: [{ fieldId: envelope.fields[i] ?? '', signatureImageBase64: pngOf(i) }], fontLabel: null }, META);
  }
}

describe('a failing seal key', () => {
  it('fails the round, records why on the envelope, and the sweep completes it once the key works again', async () => {
    const time = movableClock();
    let kmsDown = true;
    const base = await functionDeps({ clock: time.clock });
    const signer = base.documentSigner;
    const deps: TestDeps = { ...base, documentSigner: {
      algorithm: signer.algorithm, certificateChain: () => signer.certificateChain(),
      signDigest: (digest) => (kmsDown ? Promise.reject(new Error('KMSInternalException: the key service is unavailable')) : signer.signDigest(digest)),
    } };
    const seal = await sealWorkflow(deps);
    const envelope = await consentedEnvelope(deps, 'faults', [1]);
    await signAll(deps, envelope);
    expect(deps.sent.sealing).toEqual([envelope.id]);
    expect(await seal(envelope.id, 1)).toMatch(/^failed/);
    const failed = await deps.envelopes.find(envelope.id);
    expect(failed).toMatchObject({ status: 'in_progress', sealing: { rounds: 1, lastError: expect.stringContaining('KMSInternalException') as unknown } });
    expect((await deps.envelopes.auditLog(envelope.id)).filter((e) => e.event === 'envelope.seal_failed')).toHaveLength(1);

    expect(await sweepStalledSeals(deps)).toEqual({ restarted: 0, stalled: 0 }); // not due yet
    kmsDown = false;
    time.advance(11 * MINUTE);
    expect(await sweepStalledSeals(deps)).toEqual({ restarted: 1, stalled: 0 });
    expect(deps.sent.sealing).toEqual([envelope.id, envelope.id]);
    expect(await seal(envelope.id, 2)).toBe('succeeded');
    expect((await deps.envelopes.find(envelope.id))?.status).toBe('completed');
    time.advance(60 * MINUTE);
    expect(await sweepStalledSeals(deps)).toEqual({ restarted: 0, stalled: 0 });
    await expectInvariants(deps, envelope.id);
  });

  it('after the last round it stops restarting, records that sealing stalled and raises an alarm', async () => {
    const time = movableClock();
    const recorder = recordingLogger();
    const base = await functionDeps({ clock: time.clock, logger: recorder.logger });
    const deps: TestDeps = { ...base, documentSigner: { ...base.documentSigner, algorithm: base.documentSigner.algorithm, certificateChain: () => base.documentSigner.certificateChain(),
      signDigest: () => Promise.reject(new Error('AccessDeniedException: not allowed to use the key')) } };
    const seal = await sealWorkflow(deps);
    const envelope = await consentedEnvelope(deps, 'faults', [1]);
    await signAll(deps, envelope);
    for (let round = 1; round <= 4; round++) {
      expect(await seal(envelope.id, round)).toMatch(/^failed/);
      time.advance(7 * 60 * MINUTE);
      await sweepStalledSeals(deps);
    }
    const stalled = await deps.envelopes.find(envelope.id);
    expect(stalled).toMatchObject({ status: 'in_progress', sealing: { rounds: 4, nextCheckAt: null } });
    expect((await deps.envelopes.auditLog(envelope.id)).map((e) => e.event).filter((e) => e.startsWith('envelope.seal'))).toEqual([
      'envelope.seal_failed', 'envelope.seal_retried', 'envelope.seal_failed', 'envelope.seal_retried', 'envelope.seal_failed',
      'envelope.seal_retried', 'envelope.seal_failed', 'envelope.seal_stalled',
    ]);
    expect(recorder.alarms().map((a) => a.message)).toEqual(['sealing stalled: every round failed; an operator must look']);
    time.advance(24 * 60 * MINUTE);
    expect(await sweepStalledSeals(deps)).toEqual({ restarted: 0, stalled: 0 });
    await expectInvariants(deps, envelope.id);
  });
});

describe('a failing mailer', () => {
  it('retries an invitation with backoff, sends only what was not sent, then dead-letters it with an audit event and an alarm', async () => {
    const time = movableClock();
    const recorder = recordingLogger();
    const delivered: string[] = [];
    let sesDown = false;
    const base = await functionDeps({ clock: time.clock, logger: recorder.logger, mailer: { send: (m) => {
      if (sesDown || m.to === 'b@example.com') return Promise.reject(new Error('MessageRejected: Email address is not verified.'));
      delivered.push(m.to);
      return Promise.resolve();
    } } });
    const deps = base;
    const appId = 'mail-faults';
    const request = parseWith(CreateEnvelopeRequest, {
      tenantId: 't', signers: [{ name: 'A', email: 'a@example.com' }, { name: 'B', email: 'b@example.com' }],
      fields: [0, 1].map((signerIndex) => ({ signerIndex, type: 'signature', page: 1, x: 72, y: 72 + signerIndex * 50, w: 100, h: 30 })),
    });
    const created = await createEnvelope(deps, appId, request, [{ bytes: await makePdf(), filename: null }], META);
    await sendEnvelopeNow(deps, appId, created.id, null, META);
    expect(delivered).toEqual(['a@example.com']);
    const [pending] = await deps.envelopes.pendingOutbox(created.id);
    expect(pending).toMatchObject({ kind: 'notify', attempts: 1, lastError: expect.stringContaining('MessageRejected') as unknown });
    expect(pending?.kind === 'notify' && pending.template === 'invitation' ? pending.invitations.length : 0).toBe(1);

    for (const minutes of [1, 5, 30, 120, 480]) {
      time.advance((minutes - 0.5) * MINUTE);
      expect(await sweepOutbox(deps), `before the ${String(minutes)}-minute backoff ran out`).toBe(0);
      time.advance(0.5 * MINUTE);
      expect(await sweepOutbox(deps)).toBe(1);
    }
    expect(delivered).toEqual(['a@example.com']); // never sent twice to the signer who got it
    expect(await deps.envelopes.pendingOutbox(created.id)).toMatchObject([{ attempts: 6, deadAt: expect.any(String) as unknown }]);
    time.advance(24 * 60 * MINUTE);
    expect(await sweepOutbox(deps)).toBe(0);
    const failedEvent = (await deps.envelopes.auditLog(created.id)).find((e) => e.event === 'signer.invitation_failed');
    expect(failedEvent?.detail).toMatchObject({ signers: [{ email: 'b@example.com' }], attempts: 6 });
    expect(recorder.alarms().map((a) => a.message)).toContain('outbox message dead-lettered');
    sesDown = true; // nothing else is pending: the sweep stays quiet
    expect(await sweepOutbox(deps)).toBe(0);
  });
});

describe('a crash', () => {
  it('between commit and dispatch: the outbox sweep delivers what was queued, once', async () => {
    const time = movableClock(new Date('2026-03-01T10:00:00.000Z'));
    const deps = await functionDeps({ clock: time.clock });
    const ctx = testCtx(time.clock.now());
    const created = newEnvelope({
      id: deps.ids.next(), appId: 'app', tenantId: 't', subject: 'Crash', createdBy: null, expiresInDays: 5, fieldOrigin: 'bottom-left',
      signers: [signerInput('crash@example.com')],
      fields: [{ signerIndex: 0, type: 'date', page: 1, x: 1, y: 1, w: 10, h: 10, required: true, origin: 'bottom-left' }], ...withPages(letterDocument()),
    }, ctx);
    const sent = sendEnvelope(created.after, null, ctx);
    const linked = await withNewLinks(deps, { ...sent.change, before: null, audit: [...created.audit, ...sent.change.audit], outbox: [...created.outbox, ...sent.change.outbox] }, sent.invited, ctx);
    await deps.envelopes.commit(linked.change); // committed, then "crashed": nothing dispatched
    expect(await sweepOutbox(deps)).toBe(0);
    time.advance(61_000);
    expect(await sweepOutbox(deps)).toBe(3);
    expect(await sweepOutbox(deps)).toBe(0);
    expect(deps.sent.emails.map((m) => m.to)).toEqual(['crash@example.com']);
  });

  it('between staging blobs and the commit naming them: the blob sweep deletes them a day later, and nothing named', async () => {
    const time = movableClock();
    const deps = await functionDeps({ clock: time.clock });
    const envelope = await consentedEnvelope(deps, 'faults', [1]);
    const orphan = await stageBlobs(deps, envelope.id, (stageId) => [{ key: `signatures/${envelope.id}/${stageId}/x.png`, bytes: new Uint8Array([1, 2, 3]), contentType: 'image/png' }]);
    expect(await sweepAbandonedStages(deps)).toBe(0);
    time.advance(23 * 60 * MINUTE);
    expect(await sweepAbandonedStages(deps)).toBe(0);
    time.advance(61 * MINUTE);
    expect(await sweepAbandonedStages(deps)).toBeGreaterThanOrEqual(1);
    expect(await deps.blobs.get(orphan.keys[0] ?? '')).toBeUndefined();
    await signAll(deps, envelope);
    await expectInvariants(deps, envelope.id);
  });
});

describe('lost optimistic-lock races', () => {
  it('are retried from a fresh read: both writers land, in one unbroken chain', async () => {
    const base = await functionDeps();
    const envelope = await consentedEnvelope(base, 'faults', [1, 1]);
    let interfere = 3;
    // Before each of the first commits, another writer (the other signer viewing, then re-reading) gets in first.
    const envelopes: EnvelopeRepository = Object.assign(Object.create(base.envelopes) as EnvelopeRepository, {
      commit: async (change: Parameters<EnvelopeRepository['commit']>[0]) => {
        if (interfere-- > 0) {
          await transactById(base, envelope.id, (current, ctx) => ({
            change: { before: current, after: { ...current, version: current.version + 1 }, audit: [], outbox: [] }, result: ctx.now,
          }));
          await expect(base.envelopes.commit(change)).rejects.toBeInstanceOf(ConcurrentModification);
          throw new ConcurrentModification(change.after.id);
        }
        return base.envelopes.commit(change);
      },
    });
    const deps: TestDeps = { ...base, envelopes };
    await signDocument(deps, envelope.tokens[0] ?? '', { fields: [{ fieldId: envelope.fields[0] ?? '', signatureImageBase64: pngOf(1) }], fontLabel: null }, META);
    expect(interfere).toBeLessThan(0);
    const after = await base.envelopes.find(envelope.id);
    expect(after?.signers[0]?.status).toBe('signed');
    await expectInvariants(base, envelope.id);
  });
});
