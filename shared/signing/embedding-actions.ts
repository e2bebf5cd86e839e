/**
 * Embedded signing (decision 36): issuing the URL (bearer), opening it (the page, once), and the frame policy of the
 * page (which origins may frame it: the application's `embedOrigins`).
 */
import type { ApplicationRepository } from '#shared/ports/repositories.ts';
import { issueEmbedTicket, openEmbedTicket, withSignerLink } from './embedding.ts';
import { embedUrl, mintEmbedToken, verifyEmbedToken, mintSigningToken, sha256Hex } from '../kernel/tokens.ts';
import { NotFound, Unauthorized } from '../kernel/errors.ts';
import { parseId } from '../kernel/ids.ts';
import type { RequestMeta } from '../kernel/model.ts';
import { mutateEnvelope, transact } from './signing-context.ts';
import type { SigningDeps } from './signing-actions.ts';

export interface EmbeddingDeps extends SigningDeps {
  applications: Pick<ApplicationRepository, 'get'>;
}

/** POST /v1/envelopes/{id}/signers/{signerId}/embedded-url: `{ url, expiresAt }`, 5 minutes until opened. */
export async function embeddedUrl(deps: SigningDeps, appId: string, rawId: string, rawSignerId: string, returnUrl: string | null, meta: RequestMeta) {
  const signerId = parseId('sgn', rawSignerId);
  const { result: claims } = await mutateEnvelope(deps, appId, rawId, meta, (envelope, ctx) => {
    if (!signerId) throw new NotFound('Signer not found on this envelope');
    const issued = issueEmbedTicket(envelope, signerId, returnUrl, ctx);
    return { change: issued.change, result: issued.claims };
  });
  const token = await mintEmbedToken(deps.config.linkSecret, claims);
  return { url: embedUrl(deps.config.signingUrl, token), expiresAt: new Date(claims.expiresAt * 1000).toISOString() };
}

/** The page opens its URL: the ticket is spent and the page gets the signer's signing link token to work with. */
export async function openEmbedded(deps: EmbeddingDeps, ticket: string, meta: RequestMeta) {
  const claims = await verifyEmbedToken(deps.config.linkSecret, ticket, deps.clock.now());
  const load = async () => {
    const envelope = await deps.envelopes.find(claims.envelopeId);
    if (!envelope) throw new Unauthorized('This signing link is not valid', {}, 'link_invalid');
    return envelope;
  };
  const { envelope, result } = await transact(deps, meta, load, async (current, ctx) => {
    const opened = openEmbedTicket(current, claims, ctx);
    if (!opened.fresh) {
      const link = opened.signer.link;
      if (!link) throw new Error('a reusable link has claims');
      return { change: opened.change, result: { token: await mintSigningToken(deps.config.linkSecret, link), returnUrl: opened.signer.embedTicket?.returnUrl ?? null } };
    }
    const token = await mintSigningToken(deps.config.linkSecret, opened.fresh);
    return { change: withSignerLink(opened.change, opened.fresh, sha256Hex(token)), result: { token, returnUrl: opened.signer.embedTicket?.returnUrl ?? null } };
  });
  const app = await deps.applications.get(envelope.appId);
  return { token: result.token, envelopeId: envelope.id, signerId: claims.signerId, returnUrl: result.returnUrl, embedOrigins: app?.embedOrigins ?? [] };
}

/** The origins that may frame the page of this ticket: its application's, or none for a ticket that is not ours. */
export async function frameOrigins(deps: EmbeddingDeps, ticket: string): Promise<string[]> {
  try {
    const claims = await verifyEmbedToken(deps.config.linkSecret, ticket, deps.clock.now(), 'allow');
    const envelope = await deps.envelopes.find(claims.envelopeId);
    if (!envelope) return [];
    return (await deps.applications.get(envelope.appId))?.embedOrigins ?? [];
  } catch (error) {
    if (error instanceof Unauthorized) return [];
    throw error;
  }
}
