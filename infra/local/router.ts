import type { ApiHandler } from '#http/route.ts';
import type { RouteDef } from '../routes.ts';

export interface BoundRoute {
  def: RouteDef;
  handler: ApiHandler;
  pattern: RegExp;
  names: string[];
}

/** `/v1/envelopes/{id}/send` -> a regex capturing `id`. */
export function bindRoute(def: RouteDef, handler: ApiHandler): BoundRoute {
  const names: string[] = [];
  const source = def.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{(\w+)\\?\}/g, (_m, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  return { def, handler, pattern: new RegExp(`^${source}$`), names };
}

export type RouteMatch =
  | { kind: 'found'; route: BoundRoute; params: Record<string, string> }
  | { kind: 'method_not_allowed'; allowed: string[] }
  | { kind: 'not_found' };

export function matchRoute(routes: readonly BoundRoute[], method: string, path: string): RouteMatch {
  const allowed: string[] = [];
  for (const route of routes) {
    const match = route.pattern.exec(path);
    if (!match) continue;
    if (route.def.method !== method) {
      allowed.push(route.def.method);
      continue;
    }
    const params = Object.fromEntries(route.names.map((name, i) => [name, safeDecode(match[i + 1] ?? '')]));
    return { kind: 'found', route, params };
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
