/**
 * Signer attachments under concurrency, as invariants over many trials on the real engines (DynamoDB Local, the local
 * S3) through the use cases: however completes, replaces and removes interleave, exactly one attachment per upload is
 * committed, every stored attachment is named by a committed record (the invariants of test/support/invariants.ts),
 * and after a void every one of them is among the keys the retention lifecycle expires.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createAttachmentUploadUrl, deleteAttachment } from '#shared/attachments/attachment-actions.ts';
import { completeAttachmentUpload } from '#shared/attachments/attachment-intake-actions.ts';
import { attachmentUploadKey } from '#shared/attachments/attachments.ts';
import { deleteBlobs, discardStage } from '#shared/envelopes/blob-actions.ts';
import type { BlobStage } from '#shared/envelopes/blob-staging.ts';
import { sendEnvelopeNow, voidEnvelopeNow } from '#shared/envelopes/envelope-actions.ts';
import { createEnvelope } from '#shared/envelopes/upload-actions.ts';
import { parseWith } from '#shared/http/validation.ts';
import { CreateEnvelopeRequest } from '#shared/envelopes/envelope-schemas.ts';
import { retainedKeys } from '#shared/retention/retention-actions.ts';
import { functionDeps } from '#test/support/function-deps.ts';
import { expectInvariants, inTrials, outcome, retried, type TestDeps } from '#test/support/invariants.ts';
import { makePdf } from '#test/support/pdfs.ts';
import { pngImage } from '#test/support/attachment-files.ts';
import { postAttachment } from '#test/support/attachments.ts';

const TRIALS = 8;
const CONTENDERS = 6;
const AT_ONCE = 2;
const RACE_TIMEOUT = 180_000;
const META = { ip: '198.51.100.7', userAgent: 'attachment race' };
const APP = 'attachment-races-app';

let deps: TestDeps;
beforeAll(async () => { deps = await functionDeps(); });

/** A sent envelope whose one signer (no code needed) has one attachment field. */
async function withAttachmentField(): Promise<{ id: string; token: string; fieldId: string }> {
  const request = parseWith(CreateEnvelopeRequest, {
    tenantId: 'races', subject: 'Attachment race', signers: [{ name: 'S', email: 's@example.com', authMethod: 'none' }],
    fields: [{ signerIndex: 0, type: 'signature', page: 1, x: 72, y: 72, w: 180, h: 40 }, { signerIndex: 0, type: 'attachment', label: 'Scan', page: 1, x: 72, y: 200, w: 180, h: 30 }],
  });
  const created = await createEnvelope(deps, APP, request, [{ bytes: await makePdf({ pages: 1 }), filename: 'race.pdf' }], META);
  const { signingUrls } = await sendEnvelopeNow(deps, APP, created.id, null, META);
  const token = signingUrls.get(created.signers[0]?.id ?? '')?.split('/').at(-1) ?? '';
  return { id: created.id, token, fieldId: created.fields.find((f) => f.type === 'attachment')?.id ?? '' };
}

/** An upload URL, and the file stored under it as the presigned POST would. */
async function uploaded(envelope: { id: string; token: string; fieldId: string }, shade: number): Promise<string> {
  const url = await createAttachmentUploadUrl(deps, envelope.token, { fieldId: envelope.fieldId, filename: `scan-${String(shade)}.png`, sizeBytes: null }, META);
  const stored = await postAttachment(url, pngImage(8 + (shade % 8), 8));
  if (stored.status !== 204) throw new Error(`presigned POST: ${String(stored.status)}`);
  return url.uploadId;
}

/** The blobs.delete jobs the commits queued (replaced and removed files), carried out as the jobs worker would. */
async function runDeleteJobs(envelopeId: string): Promise<void> {
  const jobs = deps.sent.jobs.filter((j) => j.type === 'blobs.delete' && j.envelopeId === envelopeId);
  for (const job of jobs) if (job.type === 'blobs.delete') await deleteBlobs(deps, job.keys);
}

/** What the blob sweep does to stages a day old (the service clock is not moved outside test/clock). */
async function sweepStages(stages: readonly BlobStage[]): Promise<void> {
  for (const stage of stages) await discardStage(deps, stage);
}

const trials = (run: (trial: number) => Promise<void>) => inTrials(TRIALS, AT_ONCE, run);

describe(`signer attachment races, ${String(TRIALS)} trials each`, () => {
  it('many completes of one upload: every one answers the same attachment, exactly one record, one stored copy', async () => {
    await trials(async (trial) => {
      const envelope = await withAttachmentField();
      const uploadId = await uploaded(envelope, trial);
      const results = await Promise.all(Array.from({ length: CONTENDERS }, () => retried(() => completeAttachmentUpload(deps, envelope.token, uploadId, META))));
      expect(new Set(results.map((a) => a.id))).toEqual(new Set([uploadId]));
      const after = await deps.envelopes.find(envelope.id);
      expect(after?.attachments?.map((a) => a.id)).toEqual([uploadId]);
      expect(await deps.blobs.get(attachmentUploadKey(envelope.id, uploadId))).toBeUndefined();
      await runDeleteJobs(envelope.id);
      await expectInvariants(deps, envelope.id);
    });
  }, RACE_TIMEOUT);

  it('completes of different uploads for one field racing removes: at most one attachment, and only its file stored', async () => {
    await trials(async (trial) => {
      const envelope = await withAttachmentField();
      const uploads = await Promise.all(Array.from({ length: CONTENDERS }, (_, i) => uploaded(envelope, trial * CONTENDERS + i)));
      await Promise.all([
        ...uploads.map((id) => outcome(retried(() => completeAttachmentUpload(deps, envelope.token, id, META)))),
        ...uploads.map((id) => outcome(retried(() => deleteAttachment(deps, envelope.token, id, META)))),
      ]);
      const after = await deps.envelopes.find(envelope.id);
      expect((after?.attachments ?? []).length).toBeLessThanOrEqual(1);
      await runDeleteJobs(envelope.id);
      await expectInvariants(deps, envelope.id);
    });
  }, RACE_TIMEOUT);

  it('after a void, every stored attachment is named by a record and is among the keys retention expires', async () => {
    await trials(async (trial) => {
      const envelope = await withAttachmentField();
      const uploadId = await uploaded(envelope, trial);
      await Promise.all([
        outcome(retried(() => completeAttachmentUpload(deps, envelope.token, uploadId, META))),
        outcome(retried(() => voidEnvelopeNow(deps, APP, envelope.id, 'race', META))),
      ]);
      const after = await deps.envelopes.find(envelope.id);
      if (!after) throw new Error('envelope missing');
      expect(after.status).toBe('voided');
      if (!after.attachments?.length) {
        // The void won: the upload stays staged, named by its stage, for the blob sweep (which runs a day later)
        const staged = (await deps.envelopes.abandonedStages(new Date(Date.now() + 86_400_000 * 365), 1000)).filter((st) => st.envelopeId === envelope.id);
        expect(staged.map((st) => st.keys)).toEqual([[attachmentUploadKey(envelope.id, uploadId)]]);
        await sweepStages(staged);
      }
      await runDeleteJobs(envelope.id);
      await expectInvariants(deps, envelope.id);
      const expiring = new Set(await retainedKeys(deps.envelopes, after));
      for (const key of (await deps.storedKeys(envelope.id)).filter((k) => k.startsWith('attachments/'))) expect(expiring.has(key), key).toBe(true);
      expect((after.attachments ?? []).every((a) => a.retentionUntil !== null)).toBe(true);
    });
  }, RACE_TIMEOUT);
});
