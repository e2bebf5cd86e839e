import type { ApplicationRepository, EnvelopeRepository, EnvelopePage, TenantRepository } from '#shared/ports/repositories.ts';
import type { Config } from '../config.ts';
import { addSigner, sendEnvelope, voidEnvelope, type EnvelopeChange } from './envelope.ts';
import { NotFound } from '../kernel/errors.ts';
import { parseId } from '../kernel/ids.ts';
import type { SignerInput } from './envelope-inputs.ts';
import type { RequestMeta, Signer } from '../kernel/model.ts';
import { envelopeQuota, usagePeriod } from '../console/usage.ts';
import { current, mutateEnvelope, type CoreDeps } from '../signing/signing-context.ts';
import { withNewLinks } from './routing-actions.ts';

export interface EnvelopeDeps extends CoreDeps {
  config: Pick<Config, 'linkSecret' | 'signingUrl'>;
  tenants: TenantRepository;
  envelopes: EnvelopeRepository;
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

/** Draft -> sent: links minted for the first routing group, invitations queued and delivered after the commit. */
export async function sendEnvelopeNow(
  deps: EnvelopeDeps & { applications: Pick<ApplicationRepository, 'get'> }, appId: string, rawId: string, message: string | null, meta: RequestMeta,
) {
  const app = await deps.applications.get(appId);
  const quota = app ? envelopeQuota(app) : null;
  const { envelope, result: urls } = await mutateEnvelope(deps, appId, rawId, meta, async (draft, ctx) => {
    const sent = sendEnvelope(draft, message, ctx);
    const linked = await withNewLinks(deps, sent.change, sent.invited, ctx);
    // Counted in the send's own transaction, which refuses it once the quota is used up (decision 30).
    const usage = { appId, period: usagePeriod(ctx.now).id, limit: quota };
    return { change: { ...linked.change, usage }, result: linked.urls };
  });
  return { envelope, signingUrls: urls };
}

export async function voidEnvelopeNow(deps: EnvelopeDeps, appId: string, rawId: string, reason: string | null, meta: RequestMeta) {
  return (await mutateEnvelope(deps, appId, rawId, meta, (envelope, ctx) => ({ change: voidEnvelope(envelope, reason, ctx), result: null }))).envelope;
}

export type { EnvelopeChange };
