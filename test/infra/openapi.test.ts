import { BulkSendRequest, CreateFromTemplateRequest, CreateTemplateRequest } from '#shared/templates/template-schemas.ts';
import { validate, compileErrors } from '@readme/openapi-parser';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import * as v from 'valibot';
import { beforeAll, describe, expect, it } from 'vitest';
import { appendToChain, genesis } from '#shared/kernel/audit-chain.ts';
import { newSigner } from '#shared/envelopes/envelope.ts';
import type { Document, Envelope, Field, Signer } from '#shared/kernel/model.ts';
import { CONSENT_DISCLOSURE } from '#shared/signing/signing.ts';
import { errorResult, STATUS } from '#shared/http/http-errors.ts';
import { auditView, documentView, envelopeView, fieldView, signerView } from '#shared/envelopes/envelope-views.ts';
import { signingContextView } from '#shared/signing/signing-views.ts';
import { buildOpenApi, type OpenApiDocument } from '#infra/openapi.ts';
import { routes, type RouteDef } from '#infra/routes.ts';
import { AuditEventResponse, DocumentResponse, EnvelopeResponse, FieldResponse, SignerResponse } from '#shared/envelopes/envelope-response-schemas.ts';
import { ErrorResponse } from '#shared/http/error-schemas.ts';
import { SigningContextResponse } from '#shared/signing/signing-response-schemas.ts';
import type { Config } from '#shared/config.ts';
import { definition } from '#functions/api/openapi.ts';
import { memoryDeps } from '#test/support/memory-deps.ts';
import { WEBHOOK_EVENTS } from '#shared/notices/outbox.ts';
import { eventPayload } from '#shared/webhooks/webhooks.ts';
import { outsideCitationsIn } from '#test/support/outside-citations.ts';
import { TokenRequest } from '#shared/console/auth-schemas.ts';
import { CreateEnvelopeRequest } from '#shared/envelopes/envelope-schemas.ts';
import { testConfig } from '#test/support/config.ts';

const serverUrl = 'https://api.example.test';
const build = (manifest?: readonly RouteDef[]) => buildOpenApi({ serverUrl }, manifest);

function operations(doc: OpenApiDocument) {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ method: method.toUpperCase(), path, op })));
}

describe('OpenAPI document: coverage of the route manifest', () => {
  let doc: OpenApiDocument;
  beforeAll(() => { doc = build(); }); // a manifest route without documentation fails every test here, with its name

  it('has every manifest route with its method, path and operationId, and nothing else', () => {
    const documented = operations(doc).map(({ method, path, op }) => `${method} ${path} ${op.operationId}`).sort();
    const manifest = routes.map((r) => `${r.method} ${r.path} ${r.operationId}`).sort();
    expect(documented).toEqual(manifest);
  });

  it('declares every {param} of a path as a required path parameter, and no other', () => {
    for (const { path, op } of operations(doc)) {
      const templated = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      const declared = (op.parameters ?? []).filter((p) => p.in === 'path');
      expect(declared.map((p) => p.name), op.operationId).toEqual(templated);
      expect(declared.every((p) => p.required), op.operationId).toBe(true);
    }
  });

  it('puts bearer routes behind bearerAuth (and an authoring session where the route takes one) and opens the others', () => {
    for (const route of routes) {
      const op = doc.paths[route.path]?.[route.method.toLowerCase()];
      const bearer = route.authoring ? [{ bearerAuth: [] }, { authoringSession: [] }] : [{ bearerAuth: [] }];
      expect(op?.security, route.operationId).toEqual(route.auth === 'bearer' ? bearer : []);
      expect(op?.tags).toEqual([route.tag]);
      expect(op?.summary).toBe(route.summary);
    }
  });

  it('opens link routes (no security requirement, no 403) and declares their {token} credential', () => {
    const linkRoutes = routes.filter((r) => r.auth === 'link');
    expect(linkRoutes.length).toBeGreaterThan(0);
    for (const route of linkRoutes) {
      const op = doc.paths[route.path]?.[route.method.toLowerCase()];
      expect(op?.security, route.operationId).toEqual([]);
      expect(Object.keys(op?.responses ?? {}), route.operationId).toContain('401');
      // A signer's reassign is forbidden by the envelope's own setting, not by the caller's credential
      if (route.operationId !== 'reassignFromSigning') expect(Object.keys(op?.responses ?? {}), route.operationId).not.toContain('403');
      const token = op?.parameters?.find((p) => p.name === 'token');
      expect(token, route.operationId).toMatchObject({ in: 'path', required: true, schema: { type: 'string', maxLength: 4096 } });
      expect(token?.description, route.operationId).toMatch(/credential/);
    }
  });

  it('throws for a link route without a {token} path segment', () => {
    const route = routes.find((r) => r.operationId === 'getSigningContext');
    if (!route) throw new Error('getSigningContext is not in the manifest');
    expect(() => build([{ ...route, path: '/v1/signing/{id}' }])).toThrow(/getSigningContext.*\{token\}/);
  });

  it('makes buildOpenApi throw, naming the operation, for a body it cannot describe', () => {
    const route = routes.find((r) => r.operationId === 'uploadDocument');
    if (!route) throw new Error('uploadDocument is not in the manifest');
    const { requestContent: _documented, ...undocumented } = route;
    expect(() => build([undocumented])).toThrow(/uploadDocument.*requestContent/);
  });

  it('refers to component schemas by name and writes other schemas inline', () => {
    const getEnvelope = doc.paths['/v1/envelopes/{id}']?.get;
    expect(getEnvelope?.responses['200']).toMatchObject({ content: { 'application/json': { schema: { $ref: '#/components/schemas/Envelope' } } } });
    const addField = doc.paths['/v1/envelopes/{id}/fields']?.post;
    expect(addField?.responses['201']).toMatchObject({
      content: { 'application/json': { schema: { anyOf: [{ $ref: '#/components/schemas/Field' }, { $ref: '#/components/schemas/AnchoredFields' }] } } },
    });
  });

  it('throws for a path parameter it cannot describe', () => {
    const route = routes.find((r) => r.operationId === 'getEnvelope');
    if (!route) throw new Error('getEnvelope is not in the manifest');
    expect(() => build([{ ...route, path: '/v1/envelopes/{envelopeId}' }])).toThrow(/\{envelopeId\}/);
  });
});

describe('OpenAPI document: content', () => {
  let doc: OpenApiDocument;
  beforeAll(() => { doc = build(); });
  const op = (method: string, path: string) => {
    const found = doc.paths[path]?.[method];
    if (!found) throw new Error(`${method} ${path} is not documented`);
    return found;
  };

  it('is valid OpenAPI 3.1 (schemas, $refs, parameters, operation ids)', async () => {
    const copy = JSON.parse(JSON.stringify(doc)) as Parameters<typeof validate>[0]; // the parser dereferences in place
    const result = await validate(copy);
    expect(result.valid ? '' : compileErrors(result)).toBe('');
    expect(result.specification).toBe('OpenAPI');
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('1.0.0');
    expect(doc.servers).toEqual([{ url: serverUrl }]);
  });

  it('documents both envelope-creation variants, the raw upload and the PDF download', () => {
    expect(Object.keys(op('post', '/v1/envelopes').requestBody?.content ?? {})).toEqual(['multipart/form-data', 'application/json']);
    expect(op('post', '/v1/envelopes/{id}/document').requestBody?.content).toHaveProperty('application/octet-stream');
    expect(op('get', '/v1/envelopes/{id}/document').responses['200']).toMatchObject({ content: { 'application/pdf': { schema: { type: 'string' } } } });
  });

  it('lists the error statuses of the spec for each endpoint', () => {
    const statuses = (method: string, path: string) => Object.keys(op(method, path).responses);
    expect(statuses('post', '/v1/envelopes')).toEqual(expect.arrayContaining(['201', '400', '401', '413', '415']));
    expect(statuses('get', '/v1/envelopes/{id}/document')).toEqual(expect.arrayContaining(['200', '401', '404', '409']));
    expect(statuses('post', '/v1/envelopes/{id}/void')).toEqual(expect.arrayContaining(['200', '400', '401', '404']));
    expect(statuses('post', '/oauth/token')).toEqual(expect.arrayContaining(['200', '400', '401']));
    expect(statuses('get', '/v1/openapi.json')).toEqual(['200', '429', '500']); // every route is rate limited
  });

  it('documents the budget headers on every response, and Idempotency-Key on every POST with a credential', () => {
    for (const route of routes) {
      const operation = op(route.method.toLowerCase(), route.path);
      for (const [status, response] of Object.entries(operation.responses)) {
        const named = '$ref' in response ? doc.components.responses[String(response.$ref).split('/').pop() ?? ''] : response;
        expect(Object.keys((named as { headers?: object }).headers ?? {}), `${route.operationId} ${status}`).toEqual(expect.arrayContaining(['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']));
      }
      const key = operation.parameters?.find((p) => p.name === 'Idempotency-Key');
      const idempotent = route.method === 'POST' && route.auth !== 'none';
      expect(key ? { in: key.in, required: key.required } : undefined, route.operationId).toEqual(idempotent ? { in: 'header', required: false } : undefined);
      if (idempotent) expect(Object.keys(operation.responses), route.operationId).toContain('409');
    }
    expect(doc.components.headers).toHaveProperty('IdempotentReplayed');
  });

  it('documents the console: contacts and the usage summary', () => {
    expect(Object.keys(op('delete', '/v1/console/contacts/{id}').responses)).toEqual(expect.arrayContaining(['204', '401', '404']));
    expect(op('get', '/v1/console/contacts').parameters?.map((p) => p.name)).toEqual(['search']);
    expect(doc.components.schemas.Usage).toMatchObject({ required: ['plan', 'periodStart', 'periodEnd', 'envelopesUsed', 'envelopesLimit', 'overageAllowed'] });
    expect(doc.components.schemas.ContactRequest).toMatchObject({ required: ['name', 'email'] });
  });

  it('lists the error statuses of the spec and of single-use links for the signer-facing endpoints and resend', () => {
    const statuses = (method: string, path: string) => Object.keys(op(method, path).responses);
    expect(statuses('get', '/v1/signing/{token}')).toEqual(expect.arrayContaining(['200', '401', '410']));
    expect(statuses('post', '/v1/signing/{token}/otp/request')).toEqual(expect.arrayContaining(['200', '400', '401', '410', '429']));
    expect(statuses('post', '/v1/signing/{token}/otp/verify')).toEqual(expect.arrayContaining(['200', '400', '401', '410', '415']));
    expect(statuses('post', '/v1/signing/{token}/consent')).toEqual(expect.arrayContaining(['200', '401', '409', '410']));
    expect(statuses('post', '/v1/signing/{token}/sign')).toEqual(expect.arrayContaining(['200', '400', '401', '409', '415']));
    expect(statuses('post', '/v1/signing/{token}/decline')).toEqual(expect.arrayContaining(['200', '400', '401', '409', '415']));
    expect(statuses('get', '/v1/signing/{token}/document')).toEqual(expect.arrayContaining(['200', '401', '410']));
    expect(statuses('post', '/v1/envelopes/{id}/signers/{signerId}/resend')).toEqual(expect.arrayContaining(['200', '400', '401', '403', '404']));
    expect(op('get', '/v1/signing/{token}/document').responses['200']).toMatchObject({ content: { 'application/pdf': { schema: { type: 'string' } } } });
    expect(doc.components.responses.TooManyRequests).toMatchObject({ headers: { 'Retry-After': { schema: { type: 'integer' } } } });
  });

  it('documents the signer request bodies from their schemas: exact code length, optional decline body', () => {
    expect(doc.components.schemas.OtpVerifyRequest).toMatchObject({ required: ['code'], properties: { code: { type: 'string', minLength: 6, maxLength: 6 } } });
    expect(doc.components.schemas.SignRequest).toMatchObject({ required: ['fields'], properties: { fields: { type: 'array', maxItems: 1000 } } });
    expect(op('post', '/v1/signing/{token}/decline').requestBody?.required).toBe(false);
    expect(op('post', '/v1/signing/{token}/sign').requestBody?.required).toBe(true);
    expect(op('post', '/v1/signing/{token}/consent').requestBody).toBeUndefined();
  });

  it('documents list paging as integers with the spec bounds and defaults', () => {
    const params = op('get', '/v1/envelopes').parameters ?? [];
    expect(params.find((p) => p.name === 'pageSize')?.schema).toEqual({ type: 'integer', minimum: 1, maximum: 100, default: 20 });
    expect(params.find((p) => p.name === 'tenantId')?.required).toBe(true);
  });

  it('declares bearer and OAuth 2.0 client-credentials security schemes', () => {
    expect(doc.components.securitySchemes).toMatchObject({
      bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
      oauth2: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: '/oauth/token' } } },
    });
  });
});

describe('OpenAPI document: self-contained for a reader', () => {
  let doc: OpenApiDocument;
  beforeAll(() => { doc = build(); });

  it('cites no internal file: the rules are written out', () => {
    expect(outsideCitationsIn(JSON.stringify(doc))).toEqual([]);
  });

  it('gives every operation a summary and a description, and every published schema a description', () => {
    for (const { method, path, op } of operations(doc)) {
      expect(op.summary.length, `${method} ${path}`).toBeGreaterThan(5);
      expect(op.description?.length ?? 0, `${method} ${path} (${op.operationId}) has no description`).toBeGreaterThan(20);
    }
    for (const [name, schema] of Object.entries(doc.components.schemas)) expect(schema.description?.length ?? 0, name).toBeGreaterThan(10);
  });

  it('has an example for every JSON or form request body, which the route itself accepts', () => {
    for (const route of routes) {
      const content = doc.paths[route.path]?.[route.method.toLowerCase()]?.requestBody?.content ?? {};
      for (const [type, media] of Object.entries(content)) {
        if (type !== 'application/json' && type !== 'application/x-www-form-urlencoded') continue;
        const named = Object.entries(media.examples ?? {}).map(([name, { value }]) => [name, value] as const);
        const examples = media.example === undefined ? named : [['example', media.example] as const, ...named];
        expect(examples.length, `${route.operationId} ${type}`).toBeGreaterThan(0);
        // Creating an envelope takes either body: the envelope itself, or a template and its recipients.
        const schemas = route.body?.schema ? [route.body.schema]
          : { issueToken: [TokenRequest], createEnvelope: [CreateEnvelopeRequest, CreateFromTemplateRequest], createTemplate: [CreateTemplateRequest], bulkSend: [BulkSendRequest] }[route.operationId];
        if (!schemas) throw new Error(`${route.operationId}: no schema to check its example against`);
        for (const [name, example] of examples) {
          const issues = schemas.map((schema) => v.safeParse(schema, example).issues);
          expect(issues.some((found) => found === undefined), `${route.operationId} ${name}: ${JSON.stringify(issues)}`).toBe(true);
        }
      }
    }
  });

  it('documents every error code with its status in the error body', () => {
    const described = doc.components.schemas.Error?.description ?? '';
    for (const [code, status] of Object.entries(STATUS)) expect(described).toContain(`\`${code}\` (${String(status)})`);
    expect(v.safeParse(ErrorResponse, doc.components.schemas.Error?.examples?.[0]).issues).toBeUndefined();
  });

  it('lists a webhook for every event a subscription may name, with the delivery body and its signature headers', () => {
    expect(Object.keys(doc.webhooks).sort()).toEqual([...WEBHOOK_EVENTS].sort());
    for (const [event, item] of Object.entries(doc.webhooks)) {
      expect(item.post, event).toMatchObject({
        requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/WebhookEvent' } } } },
        parameters: [{ name: 'X-Service-Signature', in: 'header' }, { name: 'X-Service-Timestamp', in: 'header' }, { name: 'X-Service-Signature-V2', in: 'header' }],
      });
    }
    const schema = doc.components.schemas.WebhookEvent;
    expect(schema?.required).toEqual(expect.arrayContaining(['id', 'event', 'envelopeId', 'documentUrl', 'data']));
  });

  it('describes the body eventPayload really sends', () => {
    const envelopeId = '01940000-0000-7000-8000-000000000001';
    const body = JSON.parse(eventPayload(
      { kind: 'event', id: 'evt-1', envelopeId, event: 'signer.signed', createdAt: '2026-01-02T03:04:05.000Z', signerId: null },
      { id: envelopeId, tenantId: 'acme', subject: 'Lease', status: 'completed', completedAt: '2026-01-02T03:04:05.000Z', signers: [] } as unknown as Envelope,
      { baseUrl: serverUrl },
    )) as Record<string, unknown>;
    const schema = doc.components.schemas.WebhookEvent as { properties: Record<string, { properties?: object }> };
    expect(Object.keys(body).sort()).toEqual(Object.keys(schema.properties).sort());
    expect(Object.keys(body.data as object).sort()).toEqual(Object.keys(schema.properties.data?.properties ?? {}).sort());
  });
});

describe('response schemas match what the views return', () => {
  const now = '2026-01-02T03:04:05.678Z';
  const id = (n: number) => `01940000-0000-7000-8000-${String(n).padStart(12, '0')}`;
  const signer: Signer = {
    ...newSigner({ name: 'Ada', email: 'ada@example.com', phone: null, routingOrder: 1, authMethod: 'email_otp' }, id(2)), status: 'sent',
  };
  const field: Field = { id: id(3), documentId: id(4), signerId: id(2), type: 'signature', page: 1, x: 10, y: 20, w: 100, h: 30, required: true, origin: 'bottom-left' };
  const document: Document = {
    id: id(4), kind: 'original', mimeType: 'application/pdf', sha256: 'ab'.repeat(32), pageCount: 2, sizeBytes: 1234,
    blobKey: 'blob', createdAt: now, retentionUntil: '2026-02-01', purgeStatus: 'active',
  };
  const pages = new Map([[document.id, [{ box: { x: 0, y: 0, width: 612, height: 792 }, rotate: 0 as const }, { box: { x: 0, y: 0, width: 792, height: 612 }, rotate: 90 as const }]]]);
  const chained = appendToChain(id(1), genesis(id(1)), [{ event: 'envelope.created', actor: 'system', ip: '127.0.0.1', userAgent: 'test', detail: { n: 1 } }], { timestamp: now, nextId: () => id(5) });
  const [auditEntry] = chained.entries;
  if (!auditEntry) throw new Error('appendToChain returned no entry');
  const envelope: Envelope = {
    id: id(1), appId: id(9), tenantId: 'acme', status: 'sent', subject: 'Lease', createdBy: null, message: null, expiresInDays: 30, retentionDays: 30,
    expiresAt: now, createdAt: now, sentAt: now, completedAt: null, voidedAt: null, voidReason: null, documentHashOriginal: document.sha256,
    documentHashFinal: null, fieldOrigin: 'bottom-left', signers: [signer], fields: [field], documents: [document], version: 1, auditHead: chained.head,
  };

  const cases: [string, v.ObjectSchema<v.ObjectEntries, undefined>, Record<string, unknown>][] = [
    ['signer (send response)', SignerResponse, signerView(signer, 'https://sign.example.test/sign/t')],
    ['field', FieldResponse, fieldView(field)],
    ['document', DocumentResponse, documentView(envelope.id, document)],
    ['audit event', AuditEventResponse, auditView(auditEntry)],
    ['envelope (detail read)', EnvelopeResponse, envelopeView(envelope, { auditLog: chained.entries })],
    ['error', ErrorResponse, JSON.parse(errorResult('validation_error', 'bad', { subject: ['too long'] }, 'req-1').body ?? '{}') as Record<string, unknown>],
  ];

  const smsSigner: Signer = { ...signer, authMethod: 'sms_otp', phone: '+14155550100', status: 'viewed', viewedAt: now, otpVerifiedAt: now, consentedAt: now };
  const noOtpSigner: Signer = { ...signer, authMethod: 'none' };
  const signingContexts: [string, Record<string, unknown>][] = [
    ['email OTP, document uploaded', signingContextView(envelope, signer, CONSENT_DISCLOSURE, pages)],
    ['SMS OTP verified, consented, no document', signingContextView({ ...envelope, signers: [smsSigner], documents: [], message: 'Please sign' }, smsSigner, CONSENT_DISCLOSURE, pages)],
    ['no OTP', signingContextView({ ...envelope, signers: [noOtpSigner] }, noOtpSigner, CONSENT_DISCLOSURE, pages)],
  ];
  cases.push(...signingContexts.map(([name, body]): (typeof cases)[number] => [`signing context (${name})`, SigningContextResponse, body]));

  it.each(cases)('%s: parses, with no undocumented key', (_name, schema, body) => {
    expect(Object.keys(body).filter((key) => !(key in schema.entries))).toEqual([]);
    expect(v.safeParse(schema, body).issues).toBeUndefined();
  });

  it.each(signingContexts)('signing context (%s): has every documented key, down to fields and pages', (_name, body) => {
    const { fields, document } = SigningContextResponse.entries;
    const keysOf = (value: unknown) => Object.keys(value as object).sort();
    expect(keysOf(body)).toEqual(keysOf(SigningContextResponse.entries));
    const fieldEntries = fields.pipe[0].item.entries;
    for (const field of body.fields as unknown[]) expect(keysOf(field)).toEqual(keysOf(fieldEntries));
    const documentEntries = document.pipe[0].wrapped.entries;
    if (body.document !== null) expect(keysOf(body.document)).toEqual(keysOf(documentEntries));
  });
});

describe('GET /v1/openapi.json function', () => {
  const config: Config = testConfig({ BASE_URL: 'https://api.example.test', SIGNING_URL: 'https://sign.example.test', LOCAL_MODE: '1' });
  const event: APIGatewayProxyEventV2 = {
    version: '2.0', routeKey: 'GET /v1/openapi.json', rawPath: '/v1/openapi.json', rawQueryString: '', headers: {}, isBase64Encoded: false,
    requestContext: {
      accountId: 'local', apiId: 'local', domainName: 'localhost', domainPrefix: 'local', requestId: 'req-1', routeKey: 'GET /v1/openapi.json',
      stage: '$default', time: '', timeEpoch: 0, http: { method: 'GET', path: '/v1/openapi.json', protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'test' },
    },
  };

  it('serves the document with the configured base URL as its server, the same on every call', async () => {
    const handler = definition.createHandler(await memoryDeps({ config }));
    const first = await handler(event, {} as Context);
    const second = await handler(event, {} as Context);
    expect(first.statusCode).toBe(200);
    const body = JSON.parse(first.body ?? '') as OpenApiDocument;
    expect(body.servers).toEqual([{ url: config.baseUrl }]);
    expect(body.info.version).toBe('1.0.0');
    expect(second.body).toBe(first.body);
  });
});
