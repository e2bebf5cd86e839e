/**
 * Routes through the pipeline on in-memory ports, for the authoring tests: an application with its bearer token, two
 * drafts and a template, a clock the test moves (in memory only), and a `call` that dispatches by method and path as
 * API Gateway does.
 */
import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { definitionOf, routes } from '#infra/routes.ts';
import { createApplication, issueToken } from '#shared/console/application-actions.ts';
import { createEnvelope } from '#shared/envelopes/upload-actions.ts';
import { CreateEnvelopeRequest } from '#shared/envelopes/envelope-schemas.ts';
import { matchPath, pathPattern } from '#shared/http/route-match.ts';
import type { ApiHandler } from '#shared/http/pipeline.ts';
import { parseWith } from '#shared/http/validation.ts';
import { createTemplate } from '#shared/templates/template-actions.ts';
import { memoryDeps } from './memory-deps.ts';
import { makePdf } from './pdfs.ts';

const META = { ip: '198.51.100.7', userAgent: 'authoring test' };
const table = routes.map((route) => ({ route, path: pathPattern(route.method, route.path) }));

export interface Answer { status: number; headers: Record<string, string>; body: Record<string, unknown> }

export async function authoringWorld() {
  let now = new Date('2026-11-02T09:00:00.000Z');
  const deps = await memoryDeps({ clock: { now: () => now } });
  const app = await createApplication(deps, { name: 'authoring' });
  const apiToken = async () => (await issueToken(deps, app.clientId, app.clientSecret)).access_token;
  const handlers = new Map<string, ApiHandler>();

  async function call(method: string, url: string, options: { token?: string | undefined; json?: unknown } = {}): Promise<Answer> {
    const { pathname, searchParams } = new URL(url, 'https://api.example.com');
    const match = matchPath(table, method, pathname);
    if (match.kind !== 'found') throw new Error(`no route ${method} ${pathname}`);
    const key = `${match.route.route.method} ${match.route.route.path}`;
    const handler = handlers.get(key) ?? definitionOf(match.route.route.handler).createHandler(deps) as ApiHandler;
    handlers.set(key, handler);
    const query = Object.fromEntries(searchParams);
    const event = {
      version: '2.0', routeKey: key, rawPath: pathname, rawQueryString: searchParams.toString(),
      headers: { ...(options.token ? { authorization: `Bearer ${options.token}` } : {}), ...(options.json === undefined ? {} : { 'content-type': 'application/json' }) },
      queryStringParameters: Object.keys(query).length > 0 ? query : undefined,
      pathParameters: Object.keys(match.params).length > 0 ? match.params : undefined,
      requestContext: {
        accountId: 'test', apiId: 'test', domainName: 'api.example.com', domainPrefix: 'api', routeKey: key, stage: '$default', requestId: randomUUID(),
        http: { method, path: pathname, protocol: 'HTTP/1.1', sourceIp: META.ip, userAgent: META.userAgent }, time: now.toUTCString(), timeEpoch: now.getTime(),
      },
      body: options.json === undefined ? undefined : JSON.stringify(options.json), isBase64Encoded: false,
    } as APIGatewayProxyEventV2;
    const result = await handler(event, {} as Context);
    const text = result.body ?? '';
    const body = result.headers['content-type']?.includes('json') && text ? JSON.parse(text) as Record<string, unknown> : {};
    return { status: result.statusCode, headers: result.headers, body };
  }

  async function draft(subject: string) {
    const request = parseWith(CreateEnvelopeRequest, {
      tenantId: 'acme', subject, signers: [{ name: 'Ana', email: 'ana@example.com' }],
      fields: [{ signerIndex: 0, type: 'signature', page: 1, x: 72, y: 72, w: 180, h: 40 }],
    });
    return createEnvelope(deps, app.appId, request, [{ bytes: await makePdf({ pages: 2 }), filename: `${subject}.pdf` }], META);
  }

  const template = await createTemplate(deps, app.appId, {
    tenantId: 'acme', name: 'NDA', subject: null, message: null, expiresInDays: null,
    roles: [{ role: 'client', routingOrder: 1, authMethod: 'none' }], fields: [{ role: 'client', documentIndex: 0, type: 'signature', page: 1, x: 72, y: 72, w: 180, h: 40, required: true }],
  }, [{ bytes: await makePdf({ pages: 1 }), filename: 'nda.pdf' }]);

  /** Issues an authoring URL with the API token and opens it: the session's answer. */
  async function open(kind: 'envelopes' | 'templates', id: string, mode: 'fields' | 'full' = 'fields') {
    const issued = await call('POST', `/v1/${kind}/${id}/authoring-url`, { token: await apiToken(), json: { mode } });
    if (issued.status !== 200) throw new Error(`authoring-url answered ${String(issued.status)}: ${JSON.stringify(issued.body)}`);
    const ticket = String(issued.body.url).split('/').at(-1) ?? '';
    const opened = await call('POST', `/v1/authoring/${ticket}/open`);
    return { ticket, ...opened, session: String(opened.body.session) };
  }

  return { deps, app, apiToken, call, draft, template, open, advance: (seconds: number) => { now = new Date(now.getTime() + seconds * 1000); }, now: () => now };
}
