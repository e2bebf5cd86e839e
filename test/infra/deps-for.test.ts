import { describe, expect, expectTypeOf, it } from 'vitest';
import { bearerAccess, invites, linkAccess, portsFor, route, task, worker } from '#shared/http/endpoint.ts';
import { noContent } from '#shared/http/responses.ts';
import type { DepsFor } from '#shared/http/deps-for.ts';
import { accessOf } from '#infra/stacks/access.ts';
import { memoryDeps } from '#test/support/memory-deps.ts';
import { ADAPTER_PORTS, functionEnvironment, manifestHandlers, RESOURCE_KEYS, UNBOUND, unboundAdapters, type ServiceResources } from '#infra/stacks/environment.ts';

const resources = Object.fromEntries(RESOURCE_KEYS.map((key) => [key, `resource:${key}`])) as ServiceResources;
const settings = { senderEmail: 'mail@example.com', smsSenderId: 'ESIGN', rateLimits: '{}', jobsMaxConcurrency: 2 };

describe('the deps a function is typed with and the adapters its environment binds', () => {
  it.each(manifestHandlers())('agree for %s', (handler) => {
    const ports = portsFor(accessOf(handler));
    const env = functionEnvironment(handler, resources, settings);
    const unbound = new Set(unboundAdapters(handler));
    for (const [specifier, port] of Object.entries(ADAPTER_PORTS)) {
      if (specifier !== '#shared/adapters/aws/dynamo-table-adapters.ts') expect(unbound.has(specifier), specifier).toBe(!ports.has(port));
    }
    expect(env.MAIL_FROM !== undefined).toBe(ports.has('mailer'));
    expect(env.JOBS_QUEUE_URL !== UNBOUND).toBe(ports.has('jobs'));
    expect(env.BUCKET_NAME !== UNBOUND).toBe(ports.has('blobs'));
    expect(env.SEAL_KEY_ID !== undefined).toBe(ports.has('documentSigner'));
    expect(env.SEAL_STATE_MACHINE_ARN !== undefined || env.WEBHOOK_RETRY_STATE_MACHINE_ARN !== undefined).toBe(ports.has('workflows'));
    // The secret box opens what DATA_KEY sealed: bound exactly when the key is.
    expect(env.DATA_KEY_ARN !== undefined).toBe(ports.has('secrets'));
    if (ports.has('envelopes')) expect(env.TABLE_NAME).toBe(resources.tableName);
  });
});

describe('DepsFor', () => {
  it('leaves out the ports an access row does not declare', () => {
    type Reader = DepsFor<typeof bearerAccess>;
    expectTypeOf<Reader>().toHaveProperty('envelopes');
    expectTypeOf<Reader>().toHaveProperty('rateLimiter');
    expectTypeOf<'mailer' extends keyof Reader ? true : false>().toEqualTypeOf<false>();
    expectTypeOf<'secrets' extends keyof Reader ? true : false>().toEqualTypeOf<false>();
    expectTypeOf<'jobs' extends keyof Reader ? true : false>().toEqualTypeOf<false>();
    const reader = {} as Reader;
    // @ts-expect-error -- a route declaring no `mail` has no mailer
    expect(reader.mailer).toBeUndefined();
    type Inviter = DepsFor<typeof linkAccess & typeof invites>;
    expectTypeOf<Inviter>().toHaveProperty('mailer');
    expectTypeOf<Inviter>().toHaveProperty('sms');
    expectTypeOf<Inviter>().toHaveProperty('jobs');
    expectTypeOf<'workflows' extends keyof Inviter ? true : false>().toEqualTypeOf<false>();
    expectTypeOf<DepsFor<{ secrets: ['DATA_KEY'] }>>().toHaveProperty('secrets');
    expectTypeOf<'workflows' extends keyof DepsFor<{ starts: [] }> ? true : false>().toEqualTypeOf<false>();
    expectTypeOf<DepsFor<{ sign: true }>>().toHaveProperty('sealEvidence');
  });

  it('is what portsFor binds at run time', () => {
    expect([...portsFor(bearerAccess)].sort()).toEqual(['applications', 'bulkSends', 'clock', 'config', 'contacts', 'envelopes', 'idempotency', 'ids', 'logger', 'metrics', 'rateLimiter', 'team', 'templates', 'tenants', 'usage', 'webhookSender', 'webhooks']);
    expect(portsFor({ starts: [] }).has('workflows')).toBe(false);
    expect(portsFor({ secrets: ['DATA_KEY'], mail: true }).has('secrets')).toBe(true);
  });
});

describe('route, worker and task', () => {
  it('hand their implementation only the ports the access row binds, in the types and at run time', async () => {
    const deps = await memoryDeps();
    let routePorts: string[] = [];
    const reader = route({
      method: 'GET', path: '/v1/probe', auth: 'none', operationId: 'probe', summary: 'Probe', tag: 'Meta', success: { status: 200, description: '' }, errors: {},
      access: bearerAccess,
    }, (narrowed) => {
      routePorts = Object.keys(narrowed);
      // @ts-expect-error -- a route declaring no `mail` cannot use the mailer
      const mailer: unknown = narrowed.mailer;
      expect(mailer).toBeUndefined();
      return () => Promise.resolve(noContent());
    });
    reader.createHandler(deps);
    expect(routePorts.sort()).toEqual([...portsFor(bearerAccess)].sort());

    const sweeper = worker({ name: 'probe', trigger: { kind: 'schedule', everySeconds: 60 }, access: { table: 'write', jobs: true } }, (narrowed) => () => {
      // @ts-expect-error -- a worker declaring no `mail` cannot use the mailer
      const mailer: unknown = narrowed.mailer;
      return Promise.resolve({ mailer: typeof mailer, jobs: typeof narrowed.jobs });
    });
    expect(await sweeper.createHandler(deps)(undefined as never)).toEqual({ mailer: 'undefined', jobs: 'object' });

    const step = task({ access: { table: 'write' } }, (narrowed) => () => {
      // @ts-expect-error -- a task declaring no `starts` cannot start workflows
      const workflows: unknown = narrowed.workflows;
      return Promise.resolve(typeof workflows);
    });
    expect(await step.createHandler(deps)(undefined as never)).toBe('undefined');
  });
});
