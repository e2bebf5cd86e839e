import type { ApplicationRepository, EnvelopeRepository, EnvelopePage, TenantRepository } from '#ports/repositories.ts';
import type { BlobStore } from '#ports/services.ts';
import type { Config } from '../../config.ts';
import { assertDocumentLimits } from '../documents.ts';
import { addSigner, createEnvelope as newEnvelope, sendEnvelope, voidEnvelope, type EnvelopeChange, type NewEnvelopeInput } from '../envelope.ts';
import { NotFound, ValidationError, type FieldErrors } from '../errors.ts';
import { addFields } from '../fields.ts';
import { parseId } from '../ids.ts';
import type { AddFieldInput, CreateEnvelopeInput, SignerInput, UploadInput } from '../inputs.ts';
import { originals, type Envelope, type Field, type RequestMeta, type Signer, type TenantSettings } from '../model.ts';
import { envelopeQuota, usagePeriod } from '../usage.ts';
import { withStagedBlobs } from './blobs.ts';
import { commitChange, contextOf, current, mutateEnvelope, type CoreDeps } from './context.ts';
import { checkOriginal, placementsOf, textIndexOf, type CheckedOriginal } from './documents.ts';
import { withNewLinks } from './routing.ts';

export interface EnvelopeDeps extends CoreDeps {
  config: Pick<Config, 'linkSecret' | 'signingUrl'>;
  tenants: TenantRepository;
  blobs: BlobStore;
  envelopes: EnvelopeRepository;
}

/**
 * The request's fields with signers resolved to indexes (by index or email) and anchors resolved to placements in
 * the uploaded documents (one field per occurrence).
 */
function resolveFields(request: CreateEnvelopeInput, tenant: TenantSettings, documents: readonly CheckedOriginal[]): NewEnvelopeInput['fields'] {
  const errors: FieldErrors = {};
  const fields = request.fields.flatMap((field, i) => {
    const { signerIndex, signerEmail, documentIndex = 0, origin, type, w, h, required, label, value, readOnly } = field;
    const index = signerIndex ?? request.signers.findIndex((s) => s.email.toLowerCase() === signerEmail?.toLowerCase());
    if (index < 0 || index >= request.signers.length) {
      const key = signerIndex === undefined ? 'signerEmail' : 'signerIndex';
      errors[`fields[${String(i)}].${key}`] = ['does not name a signer of this request'];
    }
    if (documents.length > 0 && documentIndex >= documents.length) {
      errors[`fields[${String(i)}].documentIndex`] = [`does not name a document of this request (it has ${String(documents.length)})`];
      return [];
    }
    const document = documents[documentIndex];
    return placementsOf(field, document?.document, document?.index, `fields[${String(i)}]`).map(({ page = 1, x = 0, y = 0, origin: placedOrigin }) => ({
      type, page, x, y, w, h, required, label: label ?? null, value: value ?? null, readOnly: readOnly ?? false,
      signerIndex: index, documentIndex, origin: placedOrigin ?? origin ?? request.fieldOrigin ?? tenant.fieldOrigin,
    }));
  });
  if (Object.keys(errors).length > 0) throw new ValidationError('Some fields name no signer or document', errors);
  return fields;
}

/**
 * A new draft: with its documents (a multipart create, several `file` parts in order) or without (a JSON create; the
 * documents are uploaded afterwards). The PDFs and their text indexes are staged, then named by the commit.
 */
export async function createEnvelope(deps: EnvelopeDeps, appId: string, request: CreateEnvelopeInput, files: readonly UploadInput[], meta: RequestMeta): Promise<Envelope> {
  const tenant = await deps.tenants.get(appId, request.tenantId);
  const ctx = contextOf(deps, meta);
  const id = deps.ids.next();
  assertDocumentLimits(files.map((f) => ({ sizeBytes: f.bytes.byteLength })));
  const checked: CheckedOriginal[] = [];
  for (const [i, file] of files.entries()) {
    checked.push(await checkOriginal(file, { envelopeId: id, documentId: deps.ids.next(), now: ctx.now, order: i + 1 }, files.length > 1 ? `file[${String(i)}]` : 'file'));
  }
  const change = newEnvelope({
    id, appId, tenantId: request.tenantId, subject: request.subject, createdBy: request.createdBy,
    expiresInDays: request.expiresInDays ?? tenant.defaultExpiresInDays, retentionDays: tenant.retentionDays, fieldOrigin: request.fieldOrigin ?? tenant.fieldOrigin,
    signers: request.signers, fields: resolveFields(request, tenant, checked), documents: checked.map((c) => c.document),
  }, ctx);
  if (checked.length === 0) {
    await commitChange(deps, change);
    return change.after;
  }
  await withStagedBlobs(deps, id, () => checked.flatMap((c) => c.blobs), (stage) => commitChange(deps, { ...change, releases: [stage.id] }));
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

export async function addEnvelopeSigner(
  deps: EnvelopeDeps, appId: string, rawId: string, input: SignerInput, meta: RequestMeta,
): Promise<Signer> {
  const { result } = await mutateEnvelope(deps, appId, rawId, meta, (envelope, ctx) => {
    const added = addSigner(envelope, input, ctx);
    return { change: added.change, result: added.signer };
  });
  return result;
}

/**
 * Places a field on a draft: by coordinates, or by an anchor in its document's stored text index, which may place
 * several (one per occurrence) or none (`ignoreIfMissing`).
 */
export async function addEnvelopeFields(deps: EnvelopeDeps, appId: string, rawId: string, input: AddFieldInput, meta: RequestMeta): Promise<Field[]> {
  const { envelope: draft } = await mutateEnvelope(deps, appId, rawId, meta, () => ({ change: null, result: null }));
  const documents = originals(draft);
  const document = input.documentId === null ? (documents.length === 1 ? documents[0] : undefined) : documents.find((d) => d.id === input.documentId);
  if (input.anchor && input.documentId !== null && !document) throw ValidationError.at('documentId', 'is not a document of this envelope');
  if (input.anchor && !document && documents.length > 1) throw ValidationError.at('documentId', 'is required: name the document the anchor is in');
  const index = input.anchor && document ? await textIndexOf(deps, document) : undefined;
  const placements = placementsOf(input, document, index, '').map((p) => ({
    documentId: input.documentId ?? document?.id ?? null, signerId: input.signerId, type: p.type, page: p.page ?? 1, x: p.x ?? 0, y: p.y ?? 0, w: p.w, h: p.h,
    required: p.required, origin: p.origin ?? draft.fieldOrigin, label: p.label ?? null, value: p.value ?? null, readOnly: p.readOnly ?? false,
  }));
  if (placements.length === 0) return [];
  const { result } = await mutateEnvelope(deps, appId, rawId, meta, (envelope, ctx) => {
    const added = addFields(envelope, placements, ctx);
    return { change: added.change, result: added.fields };
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

export type { EnvelopeChange };
