/**
 * Embedded authoring: a URL that opens the editor on one draft or template, valid 10 minutes until opened and
 * opened once; opening it gives the page a session token scoped to that resource (shared/http/pipeline.ts enforces
 * the scope), which lives while it is used (idle 60 minutes, at most 8 hours).
 */
import type { Config } from '../config.ts';
import type { ApplicationRepository, EnvelopeRepository, TemplateRepository } from '#shared/ports/repositories.ts';
import type { IdempotencyStore } from '#shared/ports/traffic.ts';
import type { Clock, Ids } from '#shared/ports/services.ts';
import { requireDraft } from '../kernel/change.ts';
import { Unauthorized, ValidationError } from '../kernel/errors.ts';
import type { RequestMeta } from '../kernel/model.ts';
import {
  authoringUrl, issueAuthoringSession, mintAuthoringTicket, verifyAuthoringTicket,
  type AuthoringKind, type AuthoringMode, type AuthoringPrincipal, type AuthoringTicketClaims,
} from '../kernel/tokens.ts';
import { changeOf } from '../envelopes/envelope.ts';
import { returnUrlProblem } from '../signing/embedding.ts';
import { mutateEnvelope, type CoreDeps } from '../signing/signing-context.ts';
import { readTemplate } from '../templates/template-actions.ts';

/** An authoring URL works this long unopened. */
export const AUTHORING_URL_SECONDS = 600;

export interface AuthoringUrlInput {
  returnUrl: string | null;
  mode: AuthoringMode;
  locale: string | null;
}

interface TicketDeps {
  config: Pick<Config, 'linkSecret' | 'signingUrl'>;
  clock: Clock;
  ids: Ids;
}

async function ticketFor(deps: TicketDeps, appId: string, kind: AuthoringKind, resourceId: string, input: AuthoringUrlInput, now: Date) {
  const issuedAt = Math.floor(now.getTime() / 1000);
  const claims: AuthoringTicketClaims = {
    jti: deps.ids.next(), appId, kind, resourceId, mode: input.mode, locale: input.locale, returnUrl: input.returnUrl, issuedAt, expiresAt: issuedAt + AUTHORING_URL_SECONDS,
  };
  const token = await mintAuthoringTicket(deps.config.linkSecret, claims);
  return { url: authoringUrl(deps.config.signingUrl, token), expiresAt: new Date(claims.expiresAt * 1000).toISOString() };
}

function checkReturnUrl(input: AuthoringUrlInput): void {
  const problem = input.returnUrl === null ? null : returnUrlProblem(input.returnUrl);
  if (problem) throw ValidationError.at('returnUrl', problem);
}

/** POST /v1/envelopes/{id}/authoring-url: drafts only; the issue is in the envelope's audit log. */
export async function envelopeAuthoringUrl(deps: CoreDeps & TicketDeps, appId: string, rawId: string, input: AuthoringUrlInput, meta: RequestMeta) {
  checkReturnUrl(input);
  const { envelope, result } = await mutateEnvelope(deps, appId, rawId, meta, (draft, ctx) => {
    requireDraft(draft, 'open the editor');
    const expiresAt = new Date(ctx.now.getTime() + AUTHORING_URL_SECONDS * 1000).toISOString();
    const audit = { event: 'envelope.authoring_url_issued' as const, actor: 'system', ip: meta.ip, userAgent: meta.userAgent, detail: { mode: input.mode, expiresAt } };
    return { change: changeOf(draft, draft, [audit], [], ctx), result: ctx.now };
  });
  return ticketFor(deps, appId, 'envelope', envelope.id, input, result);
}

/** POST /v1/templates/{id}/authoring-url. */
export async function templateAuthoringUrl(deps: TicketDeps & { templates: TemplateRepository }, appId: string, rawId: string, input: AuthoringUrlInput) {
  checkReturnUrl(input);
  const template = await readTemplate(deps, appId, rawId);
  return ticketFor(deps, appId, 'template', template.id, input, deps.clock.now());
}

export interface OpenDeps {
  config: Pick<Config, 'linkSecret' | 'jwtSecret'>;
  clock: Clock;
  ids: Ids;
  idempotency: IdempotencyStore;
  applications: Pick<ApplicationRepository, 'get'>;
  envelopes: Pick<EnvelopeRepository, 'find'>;
  templates: Pick<TemplateRepository, 'get'>;
}

const unusable = (message: string) => new Unauthorized(message, {}, 'link_invalid');

/** The resource is still there for the application (an envelope still a draft): a ticket to anything else opens nothing. */
async function requireOpenable(deps: OpenDeps, claims: AuthoringTicketClaims): Promise<void> {
  if (claims.kind === 'template') {
    if (!(await deps.templates.get(claims.appId, claims.resourceId))) throw unusable('This authoring link is not valid: the template was deleted');
    return;
  }
  const envelope = await deps.envelopes.find(claims.resourceId);
  if (envelope?.appId !== claims.appId) throw unusable('This authoring link is not valid');
  if (envelope.status !== 'draft') throw unusable(`This authoring link is no longer valid: the envelope is ${envelope.status}`);
}

/**
 * The page opens its URL: the ticket is spent (a conditional write of its id in the store Idempotency-Keys use, so
 * of two opens exactly one wins) and the page gets its session.
 */
export async function openAuthoring(deps: OpenDeps, ticket: string) {
  const now = deps.clock.now();
  const claims = await verifyAuthoringTicket(deps.config.linkSecret, ticket, now);
  const app = await deps.applications.get(claims.appId);
  if (!app || app.suspended) throw unusable('This authoring link is not valid');
  await requireOpenable(deps, claims);
  // Kept a minute past the ticket's own end: by then the ticket is refused by its expiry.
  const seconds = Math.max(60, claims.expiresAt - Math.floor(now.getTime() / 1000) + 60);
  const held = await deps.idempotency.claim({ id: `AUTHORING#${claims.jti}`, fingerprint: 'opened', owner: deps.ids.next(), now, lockSeconds: seconds, expiresInSeconds: seconds });
  if (held) throw new Unauthorized('This authoring link was already opened; ask for a new one', {}, 'link_opened');
  const principal: AuthoringPrincipal = { appId: app.appId, clientId: app.clientId, authoring: { kind: claims.kind, id: claims.resourceId, mode: claims.mode, openedAt: Math.floor(now.getTime() / 1000) } };
  const session = await issueAuthoringSession(deps.config.jwtSecret, principal, now);
  return {
    session: session.token, sessionExpiresAt: new Date(session.expiresAt * 1000).toISOString(), kind: claims.kind, id: claims.resourceId,
    mode: claims.mode, locale: claims.locale, returnUrl: claims.returnUrl, embedOrigins: app.embedOrigins ?? [],
  };
}

/** POST /v1/authoring/session: the same session, its idle time starting again (never past its 8 hours). */
export async function renewAuthoring(deps: { config: Pick<Config, 'jwtSecret'>; clock: Clock }, principal: AuthoringPrincipal) {
  const session = await issueAuthoringSession(deps.config.jwtSecret, principal, deps.clock.now());
  return { session: session.token, sessionExpiresAt: new Date(session.expiresAt * 1000).toISOString() };
}

/** The origins that may frame the editor of this ticket: its application's, or none for a ticket that is not ours. */
export async function authoringFrameOrigins(deps: Pick<OpenDeps, 'config' | 'clock' | 'applications'>, ticket: string): Promise<string[]> {
  try {
    const claims = await verifyAuthoringTicket(deps.config.linkSecret, ticket, deps.clock.now(), 'allow');
    return (await deps.applications.get(claims.appId))?.embedOrigins ?? [];
  } catch (error) {
    if (error instanceof Unauthorized) return [];
    throw error;
  }
}
