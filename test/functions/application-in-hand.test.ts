import { readFileSync } from 'node:fs';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { createApplication, issueToken } from '#shared/console/application-actions.ts';
import type { ApiHandler } from '#shared/http/pipeline.ts';
import { definitionOf, routes } from '#infra/routes.ts';
import type { Deps } from '#shared/deps.ts';
import { memoryDeps } from '#test/support/memory-deps.ts';

const context = {} as Context;

/** Memory deps whose application reads are counted, with a ready application and token. */
async function counted(plan: { envelopesLimit?: number; overageAllowed?: boolean } = {}) {
  const deps = await memoryDeps();
  const app = await createApplication(deps, { name: 'reads', ...plan });
  const vars: Record<string, string> = { clientId: app.clientId, clientSecret: app.clientSecret, accessToken: (await issueToken(deps, app.clientId, app.clientSecret)).access_token };
  let reads = 0;
  const applications = Object.assign(Object.create(deps.applications) as Deps['applications'], {
    get: (appId: string) => { reads++; return deps.applications.get(appId); },
  });
  return { deps: { ...deps, applications }, vars, reads: () => reads };
}

/** A sample from events/api with its {{placeholders}} filled in, through a handler built afresh (an empty application cache). */
async function invoke(deps: Deps, vars: Record<string, string>, name: string): Promise<{ statusCode: number; json: Record<string, unknown> }> {
  const text = readFileSync(`events/api/${name}.json`, 'utf8').replace(/\{\{(\w+)\}\}/g, (_m, key: string) => vars[key] ?? `{{${key}}}`);
  const event = JSON.parse(text) as APIGatewayProxyEventV2;
  const route = routes.find((r) => `${r.method} ${r.path}` === event.routeKey);
  if (!route) throw new Error(`no route ${event.routeKey}`);
  const result = await (definitionOf(route.handler).createHandler(deps) as ApiHandler)(event, context);
  return { statusCode: result.statusCode, json: JSON.parse(result.body ?? '{}') as Record<string, unknown> };
}

describe('bearer routes decide on the application record the pipeline checked', () => {
  it('a create with a PDF reads the application once: the check, whose record gives the active-content setting', async () => {
    const { deps, vars, reads } = await counted();
    const created = await invoke(deps, vars, 'create-envelope-multipart');
    expect(created.statusCode, JSON.stringify(created.json)).toBe(201);
    expect(reads()).toBe(1);
  });

  it('a send reads the application once: the check, whose record gives the plan\'s quota', async () => {
    const { deps, vars, reads } = await counted();
    const created = await invoke(deps, vars, 'create-envelope-multipart');
    const envelope = created.json as { id: string; signers: { id: string }[] };
    Object.assign(vars, { envelopeId: envelope.id, signerId: envelope.signers[0]?.id ?? '' });
    const before = reads();
    const sent = await invoke(deps, vars, 'send-envelope');
    expect(sent.statusCode, JSON.stringify(sent.json)).toBe(200);
    expect(reads() - before).toBe(1);
  });

  it('the quota still refuses a send beyond the plan, as the checked record gives it', async () => {
    const { deps, vars } = await counted({ envelopesLimit: 1, overageAllowed: false });
    const statuses: number[] = [];
    for (let i = 0; i < 2; i++) {
      const envelope = (await invoke(deps, vars, 'create-envelope-multipart')).json as { id: string; signers: { id: string }[] };
      Object.assign(vars, { envelopeId: envelope.id, signerId: envelope.signers[0]?.id ?? '' });
      statuses.push((await invoke(deps, vars, 'send-envelope')).statusCode);
    }
    expect(statuses).toEqual([200, 403]);
  });
});
