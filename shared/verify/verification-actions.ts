/**
 * What the service tells anyone holding a sealed file: that it sealed it, when, how many documents and signers the
 * envelope had, the PAdES level it was sealed at, and the audit chain head the certificate printed. No names, emails or
 * ids: the hash (or the ids printed on the certificate) is the only key, and only a holder of the file has it.
 */
import type { EnvelopeRepository } from '#shared/ports/repositories.ts';
import type { SealChain } from '#shared/ports/services.ts';
import type { AuditEntry } from '../kernel/audit-chain.ts';
import { NotFound } from '../kernel/errors.ts';
import { parseId } from '../kernel/ids.ts';
import { originals, type Document, type Envelope } from '../kernel/model.ts';

type PadesLevel = 'B-B' | 'B-T' | 'B-LT' | 'B-LTA';

export interface VerificationDeps {
  envelopes: Pick<EnvelopeRepository, 'find' | 'findSealed' | 'auditLog'>;
  config: { padesLevel: PadesLevel };
}

export interface SealRecord {
  sealedByThisService: true;
  status: 'completed';
  completedAt: string | null;
  documentCount: number;
  signerCount: number;
  padesLevel: PadesLevel;
  auditChainHead: string;
  auditChainHeadEvent: number;
  sha256: string;
}

const SHA256 = /^[0-9a-f]{64}$/;
const unknown = () => new NotFound('This service sealed no such document');

/** The record of the sealed file with this SHA-256 (hex, any case); the asker has the hash, so it is not repeated. */
export async function sealedByHash(deps: VerificationDeps, rawSha256: string): Promise<Omit<SealRecord, 'sha256'>> {
  const sha256 = rawSha256.trim().toLowerCase();
  if (!SHA256.test(sha256)) throw unknown();
  const found = await deps.envelopes.findSealed(sha256);
  if (!found) throw unknown();
  const { sha256: _known, ...record } = await sealedDocument(deps, found.envelopeId, found.documentId);
  return record;
}

/** The record of a sealed document by the ids the audit certificate prints; 404 when they do not belong together. */
export async function sealedDocument(deps: VerificationDeps, rawEnvelopeId: string, rawDocumentId: string): Promise<SealRecord> {
  const envelopeId = parseId('env', rawEnvelopeId);
  const documentId = parseId('doc', rawDocumentId);
  const envelope = envelopeId ? await deps.envelopes.find(envelopeId) : undefined;
  const document = envelope?.status === 'completed' ? envelope.documents.find((d) => d.kind === 'sealed' && (d.id === documentId || d.sourceDocumentId === documentId)) : undefined;
  if (!envelope || !document) throw unknown();
  const head = chainHeadAtSealing(envelope, await deps.envelopes.auditLog(envelope.id));
  return {
    sealedByThisService: true, status: 'completed', completedAt: envelope.completedAt, documentCount: originals(envelope).length,
    signerCount: envelope.signers.length, padesLevel: levelOf(document, deps.config.padesLevel), auditChainHead: head.hash, auditChainHeadEvent: head.seq, sha256: document.sha256,
  };
}

/**
 * The trust anchors this service publishes: the top of the seal certificate chain (its root, or the highest CA the
 * chain carries), which a validator anchors the seal's path to. None when a trust service provider holds the key.
 */
export async function sealTrustAnchors(deps: { sealChain: SealChain }): Promise<Uint8Array[]> {
  const top = (await deps.sealChain.certificateChain()).at(-1);
  if (!top) throw new NotFound('This service publishes no trust anchors');
  return [top];
}

/**
 * The level recorded at sealing. A record from before the level was kept: only B-LTA seals get archive timestamps,
 * otherwise the level the service is configured for is the best it knows (the file itself proves what it reached).
 */
function levelOf(document: Document, configured: PadesLevel): PadesLevel {
  if (document.padesLevel) return document.padesLevel;
  return document.archiveValidUntil !== undefined || (document.archiveRenewals ?? 0) > 0 ? 'B-LTA' : configured;
}

/** The head the certificate printed: the chain just before the `envelope.sealed` entry. */
function chainHeadAtSealing(envelope: Envelope, log: readonly AuditEntry[]): { seq: number; hash: string } {
  const sealed = log.find((entry) => entry.event === 'envelope.sealed');
  return sealed ? { seq: sealed.seq - 1, hash: sealed.prevHash } : envelope.auditHead;
}
