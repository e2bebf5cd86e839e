import type { Application, ApplicationRepository } from '#shared/ports/repositories.ts';
import type { Clock } from '#shared/ports/services.ts';

/**
 * An application's record as a container last read it, for at most `ttlMs`: bearer routes check every request's
 * application (exists, same client, not suspended) and rate limits read its plan, and neither needs a database
 * round trip per request for a record that changes a few times a year. A suspension therefore takes effect within
 * `ttlMs` (docs/security-and-reliability.md). An application not found is not cached.
 */
export function cachedApplications(applications: Pick<ApplicationRepository, 'get'>, clock: Clock, ttlMs = 30_000, size = 10_000): Pick<ApplicationRepository, 'get'> {
  const entries = new Map<string, { app: Application; until: number }>();
  return {
    async get(appId) {
      const now = clock.now().getTime();
      const hit = entries.get(appId);
      if (hit && hit.until > now) return hit.app;
      const app = await applications.get(appId);
      if (entries.size >= size) entries.clear();
      if (app) entries.set(appId, { app, until: now + ttlMs });
      else entries.delete(appId);
      return app;
    },
  };
}

/**
 * A bearer route's deps with the application `authorize` checked for this request answered from hand, not read
 * again: the plan's envelope quota and the active-content setting are then as old as that check's read (at most
 * the cache's 30 s, as a suspension is; decision 52). The repository's other methods are untouched.
 */
export function withCheckedApplication<D extends { applications: Pick<ApplicationRepository, 'get'> }>(deps: D, checked: Application | undefined): D {
  if (!checked) return deps;
  const inner = deps.applications;
  const applications = Object.assign(Object.create(inner) as D['applications'], {
    get: (appId: string) => (appId === checked.appId ? Promise.resolve(checked) : inner.get(appId)),
  });
  return { ...deps, applications };
}
