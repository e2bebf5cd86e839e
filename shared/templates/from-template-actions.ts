import type { ApplicationRepository } from '#shared/ports/repositories.ts';
import { sendEnvelope, type EnvelopeChange } from '../envelopes/envelope.ts';
import { InvalidState, ValidationError } from '../kernel/errors.ts';
import type { Document, Envelope, PageGeometry, RequestMeta } from '../kernel/model.ts';
import { storedKeys } from '../envelopes/page-geometry.ts';
import { originalKey } from '../envelopes/blob-staging.ts';
import { envelopeFromTemplate, type FromTemplateInput, type Template } from './templates.ts';
import { envelopeQuota, usagePeriod } from '../console/usage.ts';
import { withStagedBlobs, type BlobToStage } from '../envelopes/blob-actions.ts';
import { commitChange, contextOf } from '../signing/signing-context.ts';
import type { EnvelopeDeps } from '../envelopes/envelope-actions.ts';
import { pagesKeyOf, parsePages } from '../envelopes/page-actions.ts';
import { withNewLinks } from '../envelopes/routing-actions.ts';
import { readTemplate, type TemplateDeps } from './template-actions.ts';
import { tenantForEnvelope, type EnvelopeSender } from '../console/branding.ts';

export type FromTemplateDeps = EnvelopeDeps & TemplateDeps & { applications: Pick<ApplicationRepository, 'get'> };

/** `POST /v1/envelopes` with a `templateId` (decision 34). */
export interface FromTemplateRequest extends FromTemplateInput {
  tenantId?: string | undefined;
  templateId: string;
  message: string | null;
  cc: { name: string; email: string }[];
  reminders: { firstAfterDays: number; everyDays: number | null } | null;
  send: boolean;
  /** Who asks the signers; absent: not named. */
  sender?: EnvelopeSender | undefined;
}

/** The template's stored bytes by key: PDFs, text indexes and pages (a bulk send reads them once per job, not once per row). */
export type TemplateSources = Map<string, Uint8Array>;

export async function templateSources(deps: Pick<TemplateDeps, 'blobs'>, template: Template): Promise<TemplateSources> {
  if (template.documents.some((d) => !d.pagesKey)) throw new InvalidState('The template\'s documents were stored without their page geometry: upload them again');
  const keys = template.documents.flatMap(storedKeys);
  const sources: TemplateSources = new Map();
  await Promise.all(keys.map(async (key) => {
    const bytes = await deps.blobs.get(key);
    if (!bytes) throw new InvalidState('The template\'s documents are no longer stored (the template was deleted)');
    sources.set(key, bytes);
  }));
  return sources;
}

export interface FromTemplateOptions {
  template?: Template;
  sources?: TemplateSources;
  /** A bulk-send row's envelope: its id is derived from the batch and row, so a second create is refused. */
  envelopeId?: string;
  bulkSend?: { id: string; row: number };
}

/** The draft with its own copies of the documents, and with `send` the send in the same transaction (quota counted there). */
export async function createFromTemplate(deps: FromTemplateDeps, appId: string, request: FromTemplateRequest, meta: RequestMeta, options: FromTemplateOptions = {}) {
  const template = options.template ?? await readTemplate(deps, appId, request.templateId);
  const tenantId = request.tenantId ?? template.tenantId;
  if (tenantId !== template.tenantId) throw ValidationError.at('tenantId', `must be the template's tenant (${template.tenantId}), or be left out`);
  if (template.documents.length === 0) throw ValidationError.at('templateId', 'names a template without documents: upload one first');
  const { settings: tenant, branding } = await tenantForEnvelope(deps, appId, tenantId);
  const ctx = contextOf(deps, meta);
  const id = options.envelopeId ?? deps.ids.next();
  const copies = new Map<string, Document>(template.documents.map((d) => {
    const documentId = deps.ids.next();
    const blobKey = originalKey(id, documentId);
    return [d.id, {
      ...d, id: documentId, blobKey, textIndexKey: d.textIndexKey ? blobKey.replace(/\.pdf$/, '.text.json') : null,
      pagesKey: d.pagesKey ? pagesKeyOf(blobKey) : null, createdAt: ctx.now.toISOString(),
    }];
  }));
  const sources = options.sources ?? await templateSources(deps, template);
  const pages = new Map(template.documents.flatMap((d): [string, PageGeometry[]][] => {
    const copy = copies.get(d.id);
    const stored = d.pagesKey ? sources.get(d.pagesKey) : undefined;
    return copy && stored ? [[copy.id, parsePages(stored)]] : [];
  }));
  const draft = envelopeFromTemplate(template, request, {
    id, appId, tenantId, subject: request.subject, expiresInDays: template.expiresInDays ?? tenant.defaultExpiresInDays,
    retentionDays: tenant.retentionDays, documents: [...copies.values()], pages,
  }, ctx);
  const message = request.message ?? template.message;
  const after: Envelope = {
    ...draft.after, message, cc: request.cc, reminders: request.reminders, bulkSend: options.bulkSend ?? null, branding, sender: request.sender ?? null,
  };
  let change: EnvelopeChange = { ...draft, after };
  let signingUrls: Map<string, string> | undefined;
  if (request.send) {
    const app = await deps.applications.get(appId);
    const sent = sendEnvelope(after, message, ctx);
    const linked = await withNewLinks(deps, sent.change, sent.invited, ctx);
    // One transaction creates and sends: a refused send (quota) leaves no draft behind.
    change = {
      before: null, after: linked.change.after, audit: [...draft.audit, ...linked.change.audit], outbox: [...draft.outbox, ...linked.change.outbox],
      usage: { appId, period: usagePeriod(ctx.now).id, limit: app ? envelopeQuota(app) : null },
    };
    signingUrls = linked.urls;
  }
  const blobs = template.documents.flatMap((d): BlobToStage[] => {
    const copy = copies.get(d.id);
    if (!copy) return [];
    const pdf = { key: copy.blobKey, bytes: sources.get(d.blobKey) ?? new Uint8Array(), contentType: 'application/pdf' };
    const index = d.textIndexKey && copy.textIndexKey ? [{ key: copy.textIndexKey, bytes: sources.get(d.textIndexKey) ?? new Uint8Array(), contentType: 'application/json' }] : [];
    const pages = d.pagesKey && copy.pagesKey ? [{ key: copy.pagesKey, bytes: sources.get(d.pagesKey) ?? new Uint8Array(), contentType: 'application/json' }] : [];
    return [pdf, ...index, ...pages];
  });
  const committed = change;
  await withStagedBlobs(deps, id, () => blobs, (stage) => commitChange(deps, { ...committed, releases: [stage.id] }));
  return { envelope: committed.after, signingUrls };
}
