import type { ApplicationRepository, EnvelopeRepository, EnvelopePage, TenantRepository } from '#ports/repositories.ts';
import type { BlobStore } from '#ports/services.ts';
import type { Config } from '../../config.ts';
import {
  addField, addSigner, attachOriginal, createEnvelope as newEnvelope, requireDraft, sendEnvelope, voidEnvelope,
  type EnvelopeChange, type NewEnvelopeInput,
} from '../envelope.ts';
import { Conflict, Gone, NotFound, ValidationError, type FieldErrors } from '../errors.ts';
import { parseId } from '../ids.ts';
import type { AddFieldInput, CreateEnvelopeInput, SignerInput } from '../inputs.ts';
import type { Envelope, Field, RequestMeta, Signer, TenantSettings } from '../model.ts';
import { envelopeQuota, usagePeriod } from '../usage.ts';
import { withStagedBlobs } from './blobs.ts';
import { commitChange, contextOf, current, loadEnvelope, mutateEnvelope, type CoreDeps } from './context.ts';
import { checkOriginal } from './documents.ts';
import { withNewLinks } from './routing.ts';

export interface EnvelopeDeps extends CoreDeps {
  config: Pick<Config, 'linkSecret' | 'signingUrl'>;
  tenants: TenantRepository;
  blobs: BlobStore;
  envelopes: EnvelopeRepository;
}

/** Field signer references (index or email) resolved to indexes into `signers`. */
function resolveFields(request: CreateEnvelopeInput, tenant: TenantSettings): NewEnvelopeInput['fields'] {
  const errors: FieldErrors = {};
  const fields = request.fields.map((field, i) => {
    const { signerIndex, signerEmail, origin, type, page, x, y, w, h, required } = field;
    const index = signerIndex ?? request.signers.findIndex((s) => s.email.toLowerCase() === signerEmail?.toLowerCase());
    if (index < 0 || index >= request.signers.length) {
      const key = signerIndex === undefined ? 'signerEmail' : 'signerIndex';
      errors[`fields[${String(i)}].${key}`] = ['does not name a signer of this request'];
    }
    return { type, page, x, y, w, h, required, signerIndex: index, origin: origin ?? request.fieldOrigin ?? tenant.fieldOrigin };
  });
  if (Object.keys(errors).length > 0) throw new ValidationError('Some fields name no signer', errors);
  return fields;
}

export async function createEnvelope(
  deps: EnvelopeDeps, appId: string, request: CreateEnvelopeInput, file: Uint8Array | null, meta: RequestMeta,
): Promise<Envelope> {
  const tenant = await deps.tenants.get(appId, request.tenantId);
  const fields = resolveFields(request, tenant);
  const ctx = contextOf(deps, meta);
  const id = deps.ids.next();
  const original = file ? await checkOriginal(file, { envelopeId: id, documentId: deps.ids.next(), now: ctx.now }, 'file') : null;
  const change = newEnvelope({
    id, appId, tenantId: request.tenantId, subject: request.subject, createdBy: request.createdBy,
    expiresInDays: request.expiresInDays ?? tenant.defaultExpiresInDays, retentionDays: tenant.retentionDays, fieldOrigin: request.fieldOrigin ?? tenant.fieldOrigin,
    signers: request.signers, fields, document: original?.document ?? null,
  }, ctx);
  if (!original) {
    await commitChange(deps, change);
    return change.after;
  }
  await withStagedBlobs(deps, id, () => [original.blob], (stage) => commitChange(deps, { ...change, releases: [stage.id] }));
  return change.after;
}

export async function readEnvelope(deps: CoreDeps, appId: string, rawId: string) {
  const found = await deps.envelopes.getWithAudit(appId, parseId('env', rawId) ?? '');
  if (!found) throw new NotFound('Envelope not found');
  const envelope = await current(deps, () => Promise.resolve(found.envelope));
  // A deadline applied just now added to the chain: read the log again (rare; one Query otherwise).
  return { envelope, auditLog: envelope === found.envelope ? found.auditLog : await deps.envelopes.auditLog(envelope.id) };
}

export function listEnvelopes(deps: CoreDeps, query: Parameters<EnvelopeRepository['list']>[0]): Promise<EnvelopePage> {
  return deps.envelopes.list(query);
}

/** Attaches (or, while draft, replaces) the document; a replaced document's blob is deleted once the change stands. */
export async function uploadDocument(deps: EnvelopeDeps, appId: string, rawId: string, bytes: Uint8Array, meta: RequestMeta) {
  const envelope = await loadEnvelope(deps, appId, rawId);
  requireDraft(envelope, 'upload the document'); // before storing anything
  const { document, blob } = await checkOriginal(bytes, { envelopeId: envelope.id, documentId: deps.ids.next(), now: deps.clock.now() }, 'body');
  await withStagedBlobs(deps, envelope.id, () => [blob], (stage) => mutateEnvelope(deps, appId, rawId, meta, (latest, ctx) => {
    return { change: { ...attachOriginal(latest, document, ctx), releases: [stage.id] }, result: null };
  }));
  return document;
}

export async function addEnvelopeSigner(
  deps: EnvelopeDeps, appId: string, rawId: string, input: SignerInput, meta: RequestMeta,
): Promise<Signer> {
  const { result } = await mutateEnvelope(deps, appId, rawId, meta, (envelope, ctx) => {
    const added = addSigner(envelope, input, ctx);
    return { change: added.change, result: added.signer };
  });
  return result;
}

export async function addEnvelopeField(
  deps: EnvelopeDeps, appId: string, rawId: string, input: AddFieldInput, meta: RequestMeta,
): Promise<Field> {
  const { result } = await mutateEnvelope(deps, appId, rawId, meta, (envelope, ctx) => {
    const added = addField(envelope, { ...input, origin: input.origin ?? envelope.fieldOrigin }, ctx);
    return { change: added.change, result: added.field };
  });
  return result;
}

/** Draft -> sent: links minted for the first routing group, invitations queued and delivered after the commit. */
export async function sendEnvelopeNow(
  deps: EnvelopeDeps & { applications: Pick<ApplicationRepository, 'get'> }, appId: string, rawId: string, message: string | null, meta: RequestMeta,
) {
  const app = await deps.applications.get(appId);
  const quota = app ? envelopeQuota(app) : null;
  const { envelope, result: urls } = await mutateEnvelope(deps, appId, rawId, meta, async (draft, ctx) => {
    const sent = sendEnvelope(draft, message, ctx);
    const linked = await withNewLinks(deps, sent.change, sent.invited, ctx);
    // Counted in the send's own transaction, which refuses it once the quota is used up (DECISIONS 17).
    const usage = { appId, period: usagePeriod(ctx.now).id, limit: quota };
    return { change: { ...linked.change, usage }, result: linked.urls };
  });
  return { envelope, signingUrls: urls };
}

export async function voidEnvelopeNow(deps: EnvelopeDeps, appId: string, rawId: string, reason: string | null, meta: RequestMeta) {
  return (await mutateEnvelope(deps, appId, rawId, meta, (envelope, ctx) => ({ change: voidEnvelope(envelope, reason, ctx), result: null }))).envelope;
}

/** The original (any time) or sealed PDF (only once completed: 409 before; 410 once purged). */
export async function downloadDocument(deps: EnvelopeDeps, appId: string, rawId: string, kind: 'original' | 'sealed') {
  const envelope = await loadEnvelope(deps, appId, rawId);
  const document = envelope.documents.find((d) => d.kind === kind);
  if (!document) {
    if (kind === 'sealed') throw new Conflict(`The sealed document is available once the envelope is completed (it is ${envelope.status})`);
    throw new NotFound('The envelope has no document yet; upload the PDF first');
  }
  if (document.purgeStatus === 'purged') throw new Gone('The document was purged at the end of its retention period');
  const bytes = await deps.blobs.get(document.blobKey);
  if (!bytes) throw new Gone('The document is no longer stored');
  return { envelope, document, bytes };
}

export type { EnvelopeChange };
