/**
 * The public verification routes: what they take (a sealed file's SHA-256, or the ids the audit certificate prints)
 * and what they answer (no names, emails or ids).
 */
import * as v from 'valibot';

const PADES_LEVELS = ['B-B', 'B-T', 'B-LT', 'B-LTA'] as const;
export const SealedHashParams = v.object({ sha256: v.pipe(v.string(), v.description('The SHA-256 of the sealed PDF, hex')) });
export const SealedDocumentParams = v.object({
  envelopeId: v.pipe(v.string(), v.description('The envelope id printed on the audit certificate')),
  documentId: v.pipe(v.string(), v.description('The document id printed on the audit certificate (the original or the sealed document)')),
});

const sha256Hex = v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/), v.description('SHA-256, lowercase hex'));

export const SealRecordResponse = v.object({
  sealedByThisService: v.literal(true),
  status: v.pipe(v.literal('completed'), v.description('The envelope completed and its documents were sealed')),
  completedAt: v.pipe(v.nullable(v.string()), v.description('When the seal was made (ISO 8601, to the millisecond): the time the certificate prints')),
  documentCount: v.pipe(v.number(), v.description('How many documents the envelope sealed')),
  signerCount: v.pipe(v.number(), v.description('How many signers the envelope had')),
  padesLevel: v.pipe(v.picklist(PADES_LEVELS), v.description('The PAdES level the seal was made at (for seals recorded before the level was kept: B-LTA if archive timestamps were added, else the level the service seals at now); the file itself proves the level it reached')),
  auditChainHead: v.pipe(sha256Hex, v.description("The audit chain's head hash as printed on the certificate")),
  auditChainHeadEvent: v.pipe(v.number(), v.description('The event number of that head ("event #14")')),
  sha256: v.optional(v.pipe(sha256Hex, v.description("By envelope and document ids only: the sealed file's SHA-256, which a dropped file must match"))),
});
