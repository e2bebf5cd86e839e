/**
 * What each function may use: its module declares it (`access` in its definition, shared/http/access.ts), and this
 * adds what is derived rather than declared: every route the signing host serves (shared/http/signing-host-policy.ts)
 * reads ORIGIN_VERIFY_SECRET, so that behind CloudFront it records the viewer's address, not the edge's.
 *
 * Plain data, no CDK type: the local runtime reads it too, to give each function the environment CDK gives it.
 */
import type { Access } from '#shared/http/access.ts';
import { DEFAULT_FUNCTION_TIMEOUT_SECONDS } from '#shared/http/aws-limits.ts';
import { servedBySigningHost } from '#shared/http/signing-host-policy.ts';
import { definitionOf, routes } from '../routes.ts';

export type { Access, DocumentAccess, DocumentPrefix } from '#shared/http/access.ts';

/** The routes reached through the signing host, whose viewer address comes from CloudFront. */
const behindSigningHost = new Set(routes.filter((route) => servedBySigningHost(route.path)).map((route) => route.handler));

/** A function's access: what its module declares, with what is derived from its routes. */
export function accessOf(handler: string): Access {
  const access = definitionOf(handler).access;
  if (!behindSigningHost.has(handler)) return access;
  return { ...access, secrets: [...new Set([...(access.secrets ?? []), 'ORIGIN_VERIFY_SECRET' as const])] };
}

/** The Lambda timeout of `handler`'s function, as CDK sets it and the local runtime enforces it. */
export function functionTimeoutSeconds(handler: string): number {
  return accessOf(handler).timeoutSeconds ?? DEFAULT_FUNCTION_TIMEOUT_SECONDS;
}
