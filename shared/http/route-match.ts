/** The manifest's paths as patterns: `/v1/envelopes/{id}/send` captures `id`. Shared by the local server and the no-route function. */
export interface PathPattern {
  method: string;
  pattern: RegExp;
  names: string[];
}

export function pathPattern(method: string, path: string): PathPattern {
  const names: string[] = [];
  const source = path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{(\w+)\\?\}/g, (_m, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  return { method, pattern: new RegExp(`^${source}$`), names };
}

export type RouteMatch<R> =
  | { kind: 'found'; route: R; params: Record<string, string> }
  | { kind: 'method_not_allowed'; allowed: string[] }
  | { kind: 'not_found' };

/**
 * The route for `method path`; or which methods the path has (405); or none (404). As API Gateway does, a path with
 * fewer parameters wins (`/v1/verify/roots.pem` over `/v1/verify/{sha256}`), whatever the routes' order.
 */
export function matchPath<R extends { path: PathPattern }>(routes: readonly R[], method: string, path: string): RouteMatch<R> {
  const allowed: string[] = [];
  let best: { route: R; match: RegExpExecArray } | undefined;
  for (const route of routes) {
    const match = route.path.pattern.exec(path);
    if (!match) continue;
    if (route.path.method !== method) {
      allowed.push(route.path.method);
      continue;
    }
    if (!best || route.path.names.length < best.route.path.names.length) best = { route, match };
  }
  if (best) {
    const { route, match } = best;
    return { kind: 'found', route, params: Object.fromEntries(route.path.names.map((name, i) => [name, safeDecode(match[i + 1] ?? '')])) };
  }
  return allowed.length > 0 ? { kind: 'method_not_allowed', allowed } : { kind: 'not_found' };
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
