/**
 * The one pipeline every route runs in, Lambda and local server alike: small middy middlewares, each doing one thing,
 * in this order (`after` and `onError` run in reverse):
 *
 *   exchange     request id and viewer address; puts the request id and the budget headers on every answer
 *   identify     who calls (caller.ts): the bearer token verified once, or the link token, or the address
 *   rateLimit    counts the caller against its budgets (429 beyond them); fails open when the counter store fails
 *   authorize    bearer routes: a verified token of an existing, active application, through a client it has
 *                not revoked or a console user whose role the route admits (401, 403)
 *   idempotency  a POST with an Idempotency-Key runs at most once; a repeat gets the stored answer
 *   errors       any thrown error becomes the error shape (errors.ts); unknown ones a 500 without internals
 *   parse        path parameters, query and body, validated by the route's schemas (400, 413, 415)
 *
 * The handler then runs the route, unless idempotency found a replay: that is answered instead, so the `after`
 * middlewares still add its headers (a middy early response would skip them).
 */
import middy from '@middy/core';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import type { BearerPrincipal } from '#shared/kernel/tokens.ts';
import { DomainError, Forbidden, NotFound, RateLimited, Unauthorized } from '#shared/kernel/errors.ts';
import { parseId } from '#shared/kernel/ids.ts';
import type { RequestMeta } from '#shared/kernel/model.ts';
import type { Deps } from '../deps.ts';
import { annotateLog, withLogContext } from '../logging.ts';
import { cachedApplications } from './app-cache.ts';
import { readBody } from './body-rules.ts';
import { callerOf, type Caller } from './caller.ts';
import type { AuthKind, RouteDeclaration } from './declaration.ts';
import { resultForError } from './http-errors.ts';
import { idempotency } from './idempotency.ts';
import { budgetHeaders, rateLimits, type Charge } from './rate-limit.ts';
import { withSecurityHeaders, type HttpResult } from './responses.ts';
import { parseWith } from './validation.ts';
import { viewerEvent } from './viewer.ts';
import type { IdempotencyClaim } from '#shared/ports/traffic.ts';
import type { Application } from '#shared/ports/repositories.ts';

/** What a route's implementation is handed. `principal` is the application on bearer routes. */
export interface HttpRequest<P, Q, B, A> {
  params: P;
  query: Q;
  body: B;
  principal: A;
  /** Bearer routes: the application record `authorize` checked (the pipeline's cached read, at most 30 s old). */
  application?: Application;
  headers: Record<string, string | undefined>;
  meta: RequestMeta;
  requestId: string;
  method: string;
  path: string;
}

export type PrincipalOf<K extends AuthKind> = K extends 'bearer' ? BearerPrincipal : undefined;
export type ApiHandler = (event: APIGatewayProxyEventV2, context: Context) => Promise<HttpResult>;
export type RouteImpl<P, Q, B, A> = (request: HttpRequest<P, Q, B, A>) => Promise<HttpResult>;

/** What the pipeline itself uses; a route's implementation gets the ports its access row binds (DepsFor). */
export type PipelineDeps = Pick<Deps, 'config' | 'clock' | 'ids' | 'rateLimiter' | 'idempotency' | 'logger'> & {
  applications: Pick<Deps['applications'], 'get'>;
  team: Pick<Deps['team'], 'userBySubject' | 'client'>;
};

/** One request's state as it passes through the middlewares (kept per event, so concurrent local requests never mix). */
interface Exchange {
  requestId: string;
  caller?: Caller;
  principal?: BearerPrincipal;
  application?: Application;
  charge?: Charge;
  claim?: IdempotencyClaim;
  replay?: HttpResult;
  request?: HttpRequest<unknown, unknown, unknown, unknown>;
}

type Middleware = middy.MiddlewareObj<APIGatewayProxyEventV2, HttpResult>;
type Exchanges = WeakMap<APIGatewayProxyEventV2, Exchange>;

function exchangeOf(exchanges: Exchanges, event: APIGatewayProxyEventV2): Exchange {
  const found = exchanges.get(event);
  if (!found) throw new Error('The exchange middleware must run first');
  return found;
}

function identified(state: Exchange): Caller {
  if (!state.caller) throw new Error('The identify middleware must run first');
  return state.caller;
}

function exchange(exchanges: Exchanges, originSecret: string | null): Middleware {
  const finish = (request: middy.Request<APIGatewayProxyEventV2, HttpResult>) => {
    const state = exchanges.get(request.event);
    const requestId = state?.requestId ?? (request.event.requestContext.requestId || 'unknown');
    request.response ??= resultForError(request.error, requestId);
    request.response.headers = { ...withSecurityHeaders(request.response.headers), ...(state?.charge ? budgetHeaders(state.charge.budget) : {}), 'x-request-id': requestId };
  };
  return {
    before: (request) => {
      request.event = viewerEvent(request.event, originSecret);
      const requestId = request.event.requestContext.requestId || 'unknown';
      exchanges.set(request.event, { requestId });
      annotateLog({ requestId });
    },
    after: finish,
    onError: finish,
  };
}

function identify(exchanges: Exchanges, deps: PipelineDeps, declaration: RouteDeclaration): Middleware {
  // Telling who calls reads the table (a user's membership, an application's plan): an open route that may not read it
  // counts every request against the address, whatever token comes along
  const anonymousOnly = declaration.auth === 'none' && declaration.access.table === undefined;
  return {
    before: async (request) => {
      const caller: Caller = anonymousOnly
        ? { kind: 'anonymous', ip: request.event.requestContext.http.sourceIp || 'unknown', bearer: 'missing' }
        : await callerOf({ jwtSecret: deps.config.jwtSecret, signIn: deps.config.signIn, users: deps.team }, deps.clock.now(), request.event);
      exchangeOf(exchanges, request.event).caller = caller;
      if (caller.kind === 'app') annotateLog({ appId: caller.appId });
    },
  };
}

function rateLimit(exchanges: Exchanges, deps: PipelineDeps): Middleware {
  const charge = rateLimits(deps);
  return {
    before: async (request) => {
      const state = exchangeOf(exchanges, request.event);
      state.charge = await charge(identified(state)).catch((error: unknown) => {
        // Fail open: an unavailable counter store must not take the API down with it.
        deps.logger.error('rate limit check failed; the request is let through', { error: (error as Error | undefined)?.message });
        return undefined;
      });
      const retryAfter = state.charge?.retryAfterSeconds ?? null;
      if (state.charge && retryAfter !== null) {
        throw new RateLimited(`Rate limit of ${String(state.charge.budget.limit)} requests per window reached; retry after ${String(retryAfter)} s`, retryAfter);
      }
    },
  };
}

/**
 * An authoring session calls only the routes that declare it, on its own draft or template: another id is a 404, as
 * another application's would be (decision 6); a `fields` session on a `full` route is a 403.
 */
function authoringScope(principal: BearerPrincipal, declaration: RouteDeclaration, pathId: string | undefined): void {
  const scope = principal.authoring;
  if (!scope) return;
  const allowed = declaration.authoring;
  if (!allowed || (allowed.kind !== 'any' && allowed.kind !== scope.kind)) throw new Unauthorized('An authoring session cannot call this route', {}, 'session_scope');
  if (allowed.mode === 'full' && scope.mode !== 'full') throw new Forbidden('This authoring session places fields only: this change needs a session opened in full mode', {}, 'session_scope');
  if (allowed.kind === 'any') return;
  const own = pathId !== undefined && parseId(scope.kind === 'envelope' ? 'env' : 'tpl', pathId) === scope.id;
  if (!own) throw new NotFound(scope.kind === 'envelope' ? 'Envelope not found' : 'Template not found');
}

function authorize(exchanges: Exchanges, deps: Pick<PipelineDeps, 'applications' | 'team'>, declaration: RouteDeclaration): Middleware {
  return {
    before: async (request) => {
      const state = exchangeOf(exchanges, request.event);
      const caller = identified(state);
      if (caller.kind !== 'app') {
        if (caller.kind === 'anonymous' && caller.bearer === 'invalid') throw caller.refusal;
        throw new Unauthorized('Missing bearer token: send Authorization: Bearer <access_token>');
      }
      const { principal } = caller;
      const app = await deps.applications.get(caller.appId);
      if (!app) throw new Unauthorized('The access token is not valid', {}, 'token_invalid');
      // A further client is read on every request (never cached), so a revoked one stops at once.
      if (!principal.user && app.clientId !== principal.clientId && (await deps.team.client(principal.clientId))?.appId !== app.appId) {
        throw new Unauthorized('The access token is not valid', {}, 'token_invalid');
      }
      if (app.suspended) throw new Forbidden('This application is suspended');
      if (declaration.adminOnly === true && principal.user?.role === 'sender') throw new Forbidden('Only an administrator of this application may do this; your role is sender', {}, 'role_forbidden');
      authoringScope(caller.principal, declaration, request.event.pathParameters?.id);
      state.principal = caller.principal;
      state.application = app;
    },
  };
}

function idempotent(exchanges: Exchanges, deps: PipelineDeps, withheld: readonly string[]): Middleware {
  const keys = idempotency(deps);
  const settle = async (request: middy.Request<APIGatewayProxyEventV2, HttpResult>) => {
    const state = exchangeOf(exchanges, request.event);
    if (state.claim) await keys.settle(state.claim, request.response ?? undefined, withheld);
  };
  return {
    before: async (request) => {
      const state = exchangeOf(exchanges, request.event);
      const begun = await keys.begin(identified(state), request.event);
      if (begun && 'replay' in begun) state.replay = begun.replay;
      else if (begun) state.claim = begun.claim;
    },
    after: settle,
    // runs after `errors` has made the error an answer: a 4xx is kept for replay like any final answer
    onError: settle,
  };
}

function errors(exchanges: Exchanges, logger: PipelineDeps['logger']): Middleware {
  return {
    onError: (request) => {
      const error = request.error as Error | undefined;
      if (!(error instanceof DomainError)) logger.error('request failed', { name: error?.name, error: error?.message, stack: error?.stack });
      request.response = resultForError(request.error, exchanges.get(request.event)?.requestId ?? 'unknown');
    },
  };
}

function parse(exchanges: Exchanges, declaration: RouteDeclaration, readsInput: boolean): Middleware {
  return {
    before: async (request) => {
      const state = exchangeOf(exchanges, request.event);
      if (state.replay) return;
      const { event } = request;
      const params = declaration.params ? parseWith(declaration.params, event.pathParameters ?? {}, 'path') : {};
      const query = declaration.query ? parseWith(declaration.query, event.queryStringParameters ?? {}, 'query') : {};
      const body = readsInput ? await readBody(event, declaration.body) : undefined;
      if (params && typeof params === 'object' && 'id' in params && typeof params.id === 'string') annotateLog({ envelopeId: params.id });
      const user = state.principal?.user;
      const meta = { ip: event.requestContext.http.sourceIp || null, userAgent: event.requestContext.http.userAgent || null, ...(user ? { actor: `user:${user.email}` } : {}) };
      const { method, path } = event.requestContext.http;
      state.request = {
        params, query, body, principal: state.principal, ...(state.application ? { application: state.application } : {}), headers: event.headers, meta, requestId: state.requestId, method, path,
      };
    },
  };
}

/**
 * The route `declaration` answered by `impl`, inside the pipeline. `readsInput: false` (the fallback route) leaves the
 * body unread: a request no route takes is a 404 or 405 whatever it carries.
 */
export function pipeline<K extends AuthKind, P, Q, B>(
  declaration: RouteDeclaration<K, P, Q, B>,
  deps: PipelineDeps,
  impl: RouteImpl<P, Q, B, PrincipalOf<K>>,
  readsInput = true,
): ApiHandler {
  const exchanges: Exchanges = new WeakMap();
  const applications = cachedApplications(deps.applications, deps.clock);
  const shared = { ...deps, applications };
  const chain = middy<APIGatewayProxyEventV2, HttpResult>()
    .use(exchange(exchanges, deps.config.originVerifySecret))
    .use(identify(exchanges, shared, declaration as RouteDeclaration))
    .use(rateLimit(exchanges, shared));
  if (declaration.auth === 'bearer') chain.use(authorize(exchanges, shared, declaration as RouteDeclaration));
  const handled = chain
    .use(idempotent(exchanges, shared, declaration.withheldFromReplay ?? []))
    .use(errors(exchanges, deps.logger))
    .use(parse(exchanges, declaration as RouteDeclaration, readsInput))
    .handler(async (event) => {
      const state = exchangeOf(exchanges, event);
      return state.replay ?? impl(state.request as HttpRequest<P, Q, B, PrincipalOf<K>>);
    });
  return (event, context) => withLogContext(() => handled(event, context));
}
