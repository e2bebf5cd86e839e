/**
 * The functions a function module declares itself with (the declaration's types: declaration.ts).
 */
import type * as v from 'valibot';
import type { Deps } from '../deps.ts';
import { portsFor, type Access, type PortName } from './access.ts';
import type { DepsFor } from './deps-for.ts';
import type { AuthKind, RouteDeclaration } from './declaration.ts';
import { pipeline, type ApiHandler, type PrincipalOf, type RouteImpl } from './pipeline.ts';
import { ok, type HttpResult } from './responses.ts';

export { json, pdfContent, PDF_SCHEMA } from './declaration.ts';

/**
 * The ports `access` binds, and no others, at run time as in the types: a commit's outbox item whose carrier is left
 * out (an invitation where there is no mailer) stays in the outbox for the sweep, rather than failing on an unbound adapter.
 */
export function depsFor<const A extends Access>(deps: Deps, access: A): DepsFor<A> {
  const ports = portsFor(access);
  return Object.fromEntries(Object.entries(deps).filter(([name]) => ports.has(name as PortName))) as DepsFor<A>;
}
export * from './access.ts';
export { jsonBody } from './body-rules.ts';

export interface RouteFunction<K extends AuthKind = AuthKind, P = unknown, Q = unknown, B = unknown> {
  kind: 'route';
  declaration: RouteDeclaration<K, P, Q, B>;
  access: Access;
  /** The route inside the shared pipeline (shared/http/pipeline.ts), wired to `deps`. */
  createHandler: (deps: Deps) => ApiHandler;
}

/** Declares a route and its implementation; the types of what it parses flow from the declaration's schemas. */
export function route<K extends AuthKind, const A extends Access, P = Record<string, never>, Q = Record<string, never>, B = undefined>(
  declaration: RouteDeclaration<K, P, Q, B> & { access: A },
  impl: (deps: DepsFor<A>) => RouteImpl<P, Q, B, PrincipalOf<K>>,
): RouteFunction<K, P, Q, B> {
  return { kind: 'route', declaration, access: declaration.access, createHandler: (deps) => pipeline(declaration, deps, impl(depsFor(deps, declaration.access))) };
}

/** The API's `$default` route: what no declared route takes (404, 405), through the same pipeline. */
export interface FallbackFunction { kind: 'fallback'; access: Access; createHandler: (deps: Deps) => ApiHandler }
export function fallback<const A extends Access>(access: A, impl: (deps: DepsFor<A>) => RouteImpl<unknown, unknown, undefined, undefined>): FallbackFunction {
  const declaration: RouteDeclaration<'none', unknown, unknown, undefined> = {
    method: 'GET', path: '/{proxy+}', auth: 'none', operationId: 'noRoute', summary: 'No route', tag: 'Meta', success: { status: 200, description: '' }, errors: {}, access,
  };
  return { kind: 'fallback', access, createHandler: (deps) => pipeline(declaration, deps, impl(depsFor(deps, access)), false) };
}

/** A background function: what triggers it and what it uses. */
export type Trigger = { kind: 'queue'; queue: 'jobs' } | { kind: 'schedule'; everySeconds: number } | { kind: 'objectRemoved'; prefixes: readonly string[] };
export interface WorkerFunction<E = never, R = unknown> {
  kind: 'worker';
  name: string;
  trigger: Trigger;
  access: Access;
  createHandler: (deps: Deps) => (event: E) => Promise<R>;
}
export function worker<E, R, const A extends Access>(declaration: { name: string; trigger: Trigger; access: A }, createHandler: (deps: DepsFor<A>) => (event: E) => Promise<R>): WorkerFunction<E, R> {
  return { kind: 'worker', ...declaration, createHandler: (deps) => createHandler(depsFor(deps, declaration.access)) };
}

/** A workflow task (infra/routes.ts names the state machine and state it serves): what it uses. */
export interface TaskFunction<E = never, R = unknown> {
  kind: 'task';
  access: Access;
  createHandler: (deps: Deps) => (event: E) => Promise<R>;
}
export function task<E, R, const A extends Access>(declaration: { access: A }, createHandler: (deps: DepsFor<A>) => (event: E) => Promise<R>): TaskFunction<E, R> {
  return { kind: 'task', ...declaration, createHandler: (deps) => createHandler(depsFor(deps, declaration.access)) };
}

/** What a function module exports as `definition`. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a list of functions of any event type
export type FunctionDefinition = RouteFunction<any, any, any, any> | FallbackFunction | WorkerFunction<any, any> | TaskFunction<any, any>;

/**
 * A JSON answer checked against its response schema at compile time: `value` must be what the schema describes, so
 * the documented shape (the route's `success.content`) and the answered one cannot drift.
 */
export function respond<S extends v.GenericSchema>(_schema: S, value: v.InferInput<S>, status: 200 | 201 | 202 = 200, headers: Record<string, string> = {}): HttpResult {
  return ok(value, status, headers);
}
