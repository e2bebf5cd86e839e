/**
 * The archive sweep over memory adapters and the local CA: a sealed B-LTA file whose timestamp authority certificate
 * nears its end gets exactly one new document timestamp, whatever crashes or concurrent sweeps happen; nothing else
 * is touched.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpRevocationSource } from '#shared/adapters/http/revocation-source.ts';
import { HttpTimestampAuthority } from '#shared/adapters/http/timestamp-authority.ts';
import { changeOf } from '#shared/kernel/change.ts';
import { renewArchives } from '#shared/sealing/archive-renewal-actions.ts';
import { finalizeStep, sealStep } from '#shared/sealing/sealing-actions.ts';
import { archiveTimestampOf } from '#shared/sealing/archive-timestamp.ts';
import type { SealEvidence } from '#shared/sealing/seal.ts';
import type { Deps } from '#shared/deps.ts';
import { startTestPki, type TestPki } from '#test/support/local-pki.ts';
import { memoryDeps } from '#test/support/memory-deps.ts';
import { testCtx } from '#test/support/domain.ts';
import { fullySigned } from '#test/support/sealing.ts';
import { allSignatures, opensslTsVerify, pdfsig, startsWith } from '#test/pdf/signature-tools.ts';

const DAY_MS = 86_400_000;
const sha256 = (bytes: Uint8Array): Uint8Array => new Uint8Array(createHash('sha256').update(bytes).digest());

/** The authority the documents were sealed with (its certificate lasts 100 days), and the one that renews them. */
let sealing: TestPki;
let renewing: TestPki;
let now = Date.now();
beforeAll(async () => { [sealing, renewing] = await Promise.all([startTestPki(undefined, { tsaValidDays: 100 }), startTestPki()]); });
afterAll(async () => { await Promise.all([sealing.pki.stop(), renewing.pki.stop()]); });

const evidence = (pki: TestPki): SealEvidence => ({ level: 'B-LTA', timestamps: new HttpTimestampAuthority(pki.pki.tsaUrl), revocation: new HttpRevocationSource() });

async function sealedEnvelope(deps: Deps, level: SealEvidence['level'] = 'B-LTA'): Promise<{ id: string; bytes: Uint8Array }> {
  const sealingDeps = { ...deps, documentSigner: sealing.signer, sealEvidence: { ...evidence(sealing), level } };
  const id = await fullySigned(sealingDeps);
  // Retained seven years: longer than the sealing authority's certificate lasts, so its timestamps need renewing.
  const signed = await deps.envelopes.find(id);
  if (signed) await deps.envelopes.commit(changeOf(signed, { ...signed, retentionDays: 2555 }, [], [], testCtx(new Date(now))));
  await finalizeStep(sealingDeps, await sealStep(sealingDeps, id));
  return { id, bytes: await sealedBytes(deps, id) };
}

async function sealedBytes(deps: Deps, id: string): Promise<Uint8Array> {
  const document = (await deps.envelopes.find(id))?.documents.find((d) => d.kind === 'sealed');
  return (await deps.blobs.get(document?.blobKey ?? '')) ?? new Uint8Array();
}

describe('renewArchives', () => {
  let deps: Deps;
  beforeAll(async () => { deps = { ...(await memoryDeps({ clock: { now: () => new Date(now) } })), sealEvidence: evidence(renewing) }; });

  it('leaves a file alone until its timestamp authority certificate has 90 days left, then appends exactly one timestamp', async () => {
    now = Date.now();
    const { id, bytes } = await sealedEnvelope(deps);
    const before = await archiveTimestampOf(bytes);
    expect(await renewArchives(deps)).toMatchObject({ renewed: 0 });
    expect(await sealedBytes(deps, id)).toEqual(bytes);

    now = before!.validUntil.getTime() - 80 * DAY_MS;
    const [first, second] = await Promise.all([renewArchives(deps), renewArchives(deps)]); // two sweeps at once
    expect(first.renewed + second.renewed).toBe(1);
    const renewed = await sealedBytes(deps, id);
    expect(startsWith(renewed, bytes)).toBe(true);
    const signatures = allSignatures(renewed);
    expect(signatures.map((s) => s.subFilter)).toEqual(['ETSI.CAdES.detached', 'ETSI.RFC3161', 'ETSI.RFC3161']);
    expect(opensslTsVerify(signatures[2]!.cms, sha256(signatures[2]!.content), renewing.pki.rootPem)).toMatchObject({ ok: true });
    expect(pdfsig(renewed)).toContain('Signature is Valid.');
    expect(await renewArchives(deps)).toMatchObject({ renewed: 0 }); // the new timestamp lasts long past the horizon

    const envelope = await deps.envelopes.find(id);
    const sealed = envelope?.documents.find((d) => d.kind === 'sealed');
    expect(sealed).toMatchObject({ sha256: createHash('sha256').update(renewed).digest('hex'), sizeBytes: renewed.length, archiveRenewals: 1 });
    const audit = await deps.envelopes.auditLog(id);
    expect(audit.filter((e) => e.event === 'document.archive_renewed')).toHaveLength(1);
  });

  it('a crash before the commit leaves the file as it was; the next sweep renews it once', async () => {
    now = Date.now();
    const { id, bytes } = await sealedEnvelope(deps);
    now = (await archiveTimestampOf(bytes))!.validUntil.getTime() - 30 * DAY_MS;
    const crashing = { ...deps, blobs: { ...deps.blobs, retain: () => Promise.reject(new Error('crashed')), get: (key: string) => deps.blobs.get(key), put: deps.blobs.put.bind(deps.blobs), delete: deps.blobs.delete.bind(deps.blobs) } };
    await expect(renewArchives(crashing)).rejects.toThrow('crashed');
    expect(await sealedBytes(deps, id)).toEqual(bytes);
    await renewArchives(deps);
    expect(allSignatures(await sealedBytes(deps, id))).toHaveLength(3);
  });

  it('does not append when the authority still signs with the certificate running out, and says so', async () => {
    now = Date.now();
    const { id, bytes } = await sealedEnvelope(deps);
    now = (await archiveTimestampOf(bytes))!.validUntil.getTime() - 30 * DAY_MS;
    const errors: string[] = [];
    const same = { ...deps, sealEvidence: evidence(sealing), logger: { ...deps.logger, error: (message: string) => { errors.push(message); } } };
    await renewArchives(same);
    expect(await sealedBytes(deps, id)).toEqual(bytes);
    expect(errors).toContain('archive renewal cannot extend: the timestamp authority\'s certificate expires no later than the last timestamp\'s');
  });
});

describe('renewArchives and retention', () => {
  let deps: Deps;
  beforeAll(async () => { deps = { ...(await memoryDeps({ clock: { now: () => new Date(now) } })), sealEvidence: evidence(renewing) }; });

  it('leaves a document out of retention alone, and deletes a renewed one once its deletion date has passed', async () => {
    now = Date.now();
    const kept = await sealedEnvelope(deps);
    const renewed = await sealedEnvelope(deps);
    const validUntil = (await archiveTimestampOf(renewed.bytes))!.validUntil.getTime();
    now = validUntil - 30 * DAY_MS;
    await renewArchives(deps);
    expect(allSignatures(await sealedBytes(deps, renewed.id))).toHaveLength(3);
    expect(allSignatures(await sealedBytes(deps, kept.id))).toHaveLength(3);

    // Past both envelopes' deletion date: neither is renewed again; the renewed files are deleted and marked purged.
    const deletion = Date.parse((await deps.envelopes.find(renewed.id))?.deletionAt ?? '');
    now = deletion + DAY_MS;
    const result = await renewArchives(deps);
    expect(result).toMatchObject({ checked: 0, renewed: 0, deleted: 2 });
    for (const id of [kept.id, renewed.id]) {
      const sealed = (await deps.envelopes.find(id))?.documents.find((d) => d.kind === 'sealed');
      expect(sealed?.purgeStatus).toBe('purged');
      expect(await deps.blobs.get(sealed?.blobKey ?? '')).toBeUndefined();
    }
  });

  it('never touches a file sealed without a document timestamp (below B-LTA)', async () => {
    now = Date.now();
    const { id, bytes } = await sealedEnvelope(deps, 'B-LT');
    now = Date.now() + 95 * DAY_MS; // in retention, past the sealing authority's certificate
    expect(await renewArchives(deps)).toMatchObject({ renewed: 0 });
    expect(Date.parse((await deps.envelopes.find(id))?.deletionAt ?? '')).toBeGreaterThan(now);
    expect(await sealedBytes(deps, id)).toEqual(bytes);
  });
});
