/**
 * Blobs are written before the commit that names them (a PNG signature, an uploaded PDF, a sealed PDF), so a stage
 * record is written first, naming them; the commit deletes it in the same transaction. A request refused or lost
 * deletes its blobs at once; one that crashed leaves its stage behind, and the blob sweep deletes what it names once
 * it is a day old. So a stored blob is always named by a committed record, or about to be deleted (decision 19).
 * Every stage has a key space of its own (`.../<stageId>/...`): a request that loses never overwrites a winner.
 */
export interface BlobStage {
  id: string;
  envelopeId: string;
  keys: string[];
  createdAt: string;
}

/** The staged blobs a commit names were already swept (the commit came more than a day late): nothing was written. */
export class StageExpired extends Error {
  constructor(readonly stageIds: readonly string[]) {
    super(`staged blobs ${stageIds.join(', ')} were swept before the commit that names them`);
    this.name = 'StageExpired';
  }
}

/** How old an unreleased stage must be before the sweep deletes its blobs: far beyond any request or seal task. */
export const STAGE_ABANDONED_AFTER_MS = 86_400_000;

export const signatureKey = (envelopeId: string, stageId: string, fieldId: string) => `signatures/${envelopeId}/${stageId}/${fieldId}.png`;
export const originalKey = (envelopeId: string, documentId: string) => `original/${envelopeId}/${documentId}.pdf`;
export const sealedKey = (envelopeId: string, stageId: string, documentId: string) => `sealed/${envelopeId}/${stageId}/${documentId}.pdf`;

/** The envelope a document key belongs to: `original/<env>/<doc>.pdf`, `sealed/<env>/<stage>/<doc>.pdf`, or the older `sealed/<env>.pdf` and `sealed/<env>/<stage>.pdf`. */
export function envelopeOfKey(key: string): string | null {
  return /^(?:original|sealed)\/([0-9a-f-]{36})\/(?:[0-9a-f-]{36}\/)?[0-9a-f-]{36}\.pdf$/.exec(key)?.[1] ?? /^sealed\/([0-9a-f-]{36})\.pdf$/.exec(key)?.[1] ?? null;
}

/** Where a presigned POST puts a file before its complete call checks it (decision 18); a stage of its own names it. */
export const uploadKey = (envelopeId: string, uploadId: string) => `uploads/${envelopeId}/${uploadId}.pdf`;
