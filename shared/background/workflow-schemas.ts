/**
 * What each workflow task is invoked with (infra/workflows/*.asl.json passes it on): the one description of it. The
 * tasks parse their input with these; the use cases and ports take the inferred types (type-only imports).
 */
import * as v from 'valibot';

/** The seal workflow's start (Workflows.startSealing): its Seal task reads the envelope id. */
export const SealStart = v.object({ envelopeId: v.string(), round: v.number() });
export type SealStart = v.InferOutput<typeof SealStart>;

/** The Seal task's input: the execution's input, of which it needs the envelope. */
export const SealInput = v.object({ envelopeId: v.string() });
export type SealInput = v.InferOutput<typeof SealInput>;

/** One sealed document: its original, and the file that seals it. */
export const SealedFile = v.object({
  sourceDocumentId: v.string(), blobKey: v.string(), sha256: v.string(), pageCount: v.number(), sizeBytes: v.number(),
  /** Characters no font had, drawn as a visible box (never silently replaced): noted in envelope.sealed. */
  uncovered: v.optional(v.array(v.string())),
  /** The PAdES level the seal reached; optional for a round staged before the level was passed on. */
  padesLevel: v.optional(v.picklist(['B-B', 'B-T', 'B-LT', 'B-LTA'])),
});
export type SealedFile = v.InferOutput<typeof SealedFile>;

/** What a seal round made: one sealed file per original, staged together, and when it sealed them. */
export const SealedFiles = v.object({
  /** The stage that wrote them (shared/envelopes/blob-staging.ts): completing releases it. */
  stageId: v.string(),
  /** The time printed on the audit certificate: the envelope's completedAt. */
  sealedAt: v.string(),
  files: v.array(SealedFile),
});
export type SealedFiles = v.InferOutput<typeof SealedFiles>;

/** The Finalize task's input: what the Seal task answered (its ResultSelector keeps these fields). */
export const FinalizeInput = v.object({ envelopeId: v.string(), ...SealedFiles.entries });
export type FinalizeInput = v.InferOutput<typeof FinalizeInput>;

/** The seal workflow's catch (RecordFailure): `error` is `{ Error, Cause }` of the state that failed. */
export const SealFailedInput = v.object({
  envelopeId: v.string(),
  round: v.optional(v.number(), 1),
  error: v.object({ Error: v.optional(v.string(), 'Error'), Cause: v.optional(v.string(), '') }),
});
export type SealFailedInput = v.InferOutput<typeof SealFailedInput>;

/** The webhook-retry workflow's Attempt task: which delivery to try again. */
export const WebhookAttemptInput = v.object({ appId: v.string(), webhookId: v.string(), deliveryId: v.string() });
export type WebhookAttemptInput = v.InferOutput<typeof WebhookAttemptInput>;

/** The webhook-retry workflow's start (Workflows.startWebhookRetry); its Wait state reads `waitSeconds`. */
export const WebhookRetryStart = v.object({
  ...WebhookAttemptInput.entries,
  /** The attempt number this execution starts with (2..5). */
  attempt: v.number(),
  /** How long the execution's Wait state waits before the attempt (locally on the service clock). */
  waitSeconds: v.number(),
});
export type WebhookRetryStart = v.InferOutput<typeof WebhookRetryStart>;
