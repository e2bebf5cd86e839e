import { beforeAll, describe, expect, it } from 'vitest';
import { LocalWorkflows } from '#adapters/local/local-workflows.ts';
import { createEnvelope } from '#domain/envelope.ts';
import { finalizeStep, notifyStep, sealStep } from '#domain/use-cases/sealing.ts';
import { functionDeps } from '#test/support/function-deps.ts';
import { signerInput, testCtx } from '#test/support/domain.ts';
import { fullySigned } from '#test/support/sealing.ts';

let deps: Awaited<ReturnType<typeof functionDeps>>;
beforeAll(async () => { deps = await functionDeps(); });

describe('the seal workflow steps', () => {
  it('a failed seal leaves the envelope in progress; the retry completes it; finalize and notify run once', async () => {
    const id = await fullySigned(deps);
    let failures = 1;
    const flaky = { ...deps, documentSigner: { ...deps.documentSigner, algorithm: deps.documentSigner.algorithm, certificateChain: () => deps.documentSigner.certificateChain(),
      signDigest: (digest: Uint8Array) => (failures-- > 0 ? Promise.reject(new Error('KMS throttled')) : deps.documentSigner.signDigest(digest)) } };
    await expect(sealStep(flaky, id)).rejects.toThrow('KMS throttled');
    expect((await deps.envelopes.find(id))?.status).toBe('in_progress');

    const sealed = await sealStep(flaky, id);
    expect(sealed).toMatchObject({ envelopeId: id, blobKey: `sealed/${id}.pdf`, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) as unknown });
    expect((await deps.envelopes.find(id))?.status).toBe('in_progress');
    await finalizeStep(deps, sealed);
    const completed = await deps.envelopes.find(id);
    expect(completed).toMatchObject({ status: 'completed', documentHashFinal: sealed.sha256 });
    const events = (await deps.envelopes.auditLog(id)).length;
    await finalizeStep(deps, sealed);
    expect((await deps.envelopes.auditLog(id)).length).toBe(events);
    expect(await sealStep(deps, id)).toMatchObject({ sha256: sealed.sha256 });

    await notifyStep(deps, id);
    await notifyStep(deps, id);
    const mails = deps.sent.emails.filter((m) => m.to === 's@example.com' && m.subject.startsWith('Completed'));
    expect(mails).toHaveLength(1);
    expect(mails[0]?.attachments?.[0]).toMatchObject({ filename: 'Seal me.pdf', contentType: 'application/pdf' });
  });

  it('refuses to seal an envelope that is not fully signed, without retrying', async () => {
    const ctx = testCtx(new Date());
    const created = createEnvelope({
      id: deps.ids.next(), appId: 'app', tenantId: 't', subject: null, createdBy: null, expiresInDays: 5, fieldOrigin: 'bottom-left', signers: [signerInput('n@example.com')], fields: [], document: null,
    }, ctx);
    await deps.envelopes.commit(created);
    await expect(sealStep(deps, created.after.id)).rejects.toMatchObject({ name: 'EnvelopeNotReady' });
  });
});

describe('local workflow executions', () => {
  it('are named after the envelope: a second start while running or after success is a no-op; a failed one can rerun', async () => {
    const workflows = new LocalWorkflows();
    const runs: object[] = [];
    const endings: ((error?: Error) => void)[] = [];
    workflows.useRunner('seal-envelope', (input) => {
      runs.push(input);
      return new Promise<void>((resolve, reject) => { endings.push((error) => { if (error) reject(error); else resolve(); }); });
    });
    // The promise chain after an execution ends is microtasks only: one macrotask turn sees it through.
    const settled = () => new Promise((resolve) => setImmediate(resolve));

    await workflows.startSealing('e1');
    await workflows.startSealing('e1'); // running: a no-op
    expect(runs).toHaveLength(1);
    endings[0]?.(new Error('boom'));
    await settled();
    await workflows.startSealing('e1'); // failed: runs again
    expect(runs).toHaveLength(2);
    endings[1]?.();
    await settled();
    await workflows.startSealing('e1'); // succeeded: a no-op
    expect(runs).toHaveLength(2);
  });
});
