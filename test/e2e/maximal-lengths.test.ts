/**
 * Every value that may reach a key (tenant ids, ids, tokens, search strings, emails, Idempotency-Key), and every
 * other string a route takes, at its maximal length and beyond (decision 7): never a 5xx, always the error shape.
 * The routes and their limits are read from the OpenAPI document, so a new route or field is fuzzed without a change
 * here; only a valid body per operation is written by hand, so that one over-long field is the only thing wrong.
 */
import { describe, expect, it } from 'vitest';
import { apiUrl, call, newApp } from '#test/support/api.ts';
import { readyDraft } from '#test/support/envelopes.ts';
import { tokenOf } from '#test/support/signing.ts';

interface Schema { type?: string; maxLength?: number; properties?: Record<string, Schema>; items?: Schema; $ref?: string; anyOf?: Schema[]; oneOf?: Schema[] }
interface Operation { parameters?: { name: string; in: string; schema: Schema }[]; requestBody?: { content: Record<string, { schema: Schema }> }; security?: unknown[] }
interface OpenApi { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, Schema> } }

/** A body each JSON operation accepts as it is: the fuzz changes one string in it at a time. */
const VALID: Record<string, () => Record<string, unknown>> = {
  'POST /v1/envelopes': () => ({ tenantId: 'fuzz', subject: 's', createdBy: 'c', signers: [{ name: 'N', email: 'n@example.com', phone: '+14155550100' }] }),
  'POST /v1/envelopes/{id}/signers': () => ({ name: 'N', email: `n${String(Math.random()).slice(2, 8)}@example.com`, phone: '+14155550100' }),
  'POST /v1/envelopes/{id}/fields': () => ({ signerId: signerId(), type: 'text', page: 1, x: 1, y: 1, w: 10, h: 10 }),
  'POST /v1/envelopes/{id}/send': () => ({ message: 'm' }),
  'POST /v1/envelopes/{id}/void': () => ({ reason: 'r' }),
  'POST /v1/signing/{token}/otp/verify': () => ({ code: '123456' }),
  'POST /v1/signing/{token}/sign': () => ({ fields: [{ fieldId: signerId(), textValue: 't' }], fontLabel: 'Caveat' }),
  'POST /v1/signing/{token}/decline': () => ({ reason: 'r' }),
  'POST /v1/webhooks': () => ({ url: 'https://hooks.example.com/x', events: ['envelope.completed'], secret: 's'.repeat(16) }),
  'PUT /v1/console/tenants/{tenantId}': () => ({ retentionDays: 30 }),
  'POST /v1/console/contacts': () => ({ name: 'N', email: 'n@example.com', phone: '+14155550100' }),
};

let bearer = '';
let real: Record<string, string> = {};
let links: string[] = [];
let linkUse = 0;
const signerId = () => real.signerId ?? '';

async function world(): Promise<void> {
  bearer = (await newApp('maximal lengths')).token;
  const draft = await readyDraft(bearer);
  links = [];
  for (let i = 0; i < 6; i++) {
    const sent = await readyDraft(bearer);
    const send = await call<{ signers: { signingUrl: string | null }[] }>('POST', `/v1/envelopes/${sent.id}/send`, { token: bearer, json: {} });
    links.push(...send.body.signers.flatMap((s) => (s.signingUrl ? [tokenOf(s.signingUrl)] : [])));
  }
  real = { id: draft.id, signerId: draft.signers[0]?.id ?? '', tenantId: 'acme', deliveryId: draft.id, webhookId: draft.id };
}

const realParam = (name: string) => (name === 'token' ? links[linkUse++ % links.length] ?? '' : real[name] ?? 'x');

function resolve(doc: OpenApi, schema: Schema | undefined): Schema | undefined {
  if (!schema) return undefined;
  if (schema.$ref) return resolve(doc, doc.components.schemas[schema.$ref.split('/').at(-1) ?? '']);
  const variant = (schema.anyOf ?? schema.oneOf)?.find((s) => s.type === 'string' || s.properties);
  return variant ? resolve(doc, variant) : schema;
}

/** Lengths to try for a string: its maximum and one past it, or (unbounded) sizes far beyond any key's room. */
const lengthsFor = (schema: Schema) => (schema.maxLength ? [schema.maxLength, schema.maxLength + 1, 10_000] : [1024, 2048, 10_000]);

/** Each top-level string of `body` (and of its arrays' first objects), set to each length in turn. */
function* mutations(doc: OpenApi, schema: Schema | undefined, body: Record<string, unknown>): Generator<[string, Record<string, unknown>]> {
  for (const [name, raw] of Object.entries(resolve(doc, schema)?.properties ?? {})) {
    const prop = resolve(doc, raw);
    if (prop?.type === 'string') {
      for (const n of lengthsFor(prop)) yield [`${name}:${String(n)}`, { ...body, [name]: 'x'.repeat(n) }];
    }
    const item = resolve(doc, prop?.items);
    const first = (body[name] as Record<string, unknown>[] | undefined)?.[0];
    if (item?.properties && first) {
      for (const [inner, rawInner] of Object.entries(item.properties)) {
        const innerProp = resolve(doc, rawInner);
        if (innerProp?.type !== 'string') continue;
        for (const n of lengthsFor(innerProp)) yield [`${name}[0].${inner}:${String(n)}`, { ...body, [name]: [{ ...first, [inner]: 'x'.repeat(n) }] }];
      }
    }
  }
}

async function probe(method: string, path: string, options: { json?: unknown; headers?: Record<string, string>; auth: boolean }): Promise<string | null> {
  const headers: Record<string, string> = { ...(options.auth ? { authorization: `Bearer ${bearer}` } : {}), ...options.headers };
  if (options.json !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${apiUrl()}${path}`, { method, headers, body: options.json === undefined ? null : JSON.stringify(options.json) });
  const raw = await response.text();
  if (response.status >= 500) return `${String(response.status)}: ${raw.slice(0, 200)}`;
  if (response.status === 429) return 'rate limited: the probe proved nothing';
  if (response.status >= 400) {
    const body = JSON.parse(raw) as Record<string, unknown>;
    if (body.status !== response.status || typeof body.error !== 'string') return `out of shape: ${raw.slice(0, 200)}`;
  }
  return null;
}

describe('maximal and over-maximal lengths on every route', { timeout: 300_000 }, () => {
  it('never answers 5xx: path parameters, query strings, JSON fields and the Idempotency-Key at and beyond their limits', async () => {
    await world();
    const doc = (await call<OpenApi>('GET', '/v1/openapi.json')).body;
    const problems: string[] = [];
    let probes = 0;
    for (const [template, methods] of Object.entries(doc.paths)) {
      for (const [lower, operation] of Object.entries(methods)) {
        const method = lower.toUpperCase();
        const auth = (operation.security?.length ?? 0) > 0;
        const key = `${method} ${template}`;
        const path = (override: Record<string, string> = {}) => template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(override[name] ?? realParam(name)));
        const body = VALID[key]?.();
        const send = async (label: string, target: string, options: { json?: unknown; headers?: Record<string, string> } = {}) => {
          probes++;
          const problem = await probe(method, target, { auth, json: options.json ?? (method === 'POST' || method === 'PUT' ? body ?? {} : undefined), ...(options.headers ? { headers: options.headers } : {}) });
          if (problem) problems.push(`${key} [${label}] ${problem}`);
        };
        for (const param of operation.parameters ?? []) {
          const lengths = param.in === 'path' ? [36, 37, 255, 2048, 4096] : lengthsFor(param.schema);
          for (const n of lengths) {
            const value = 'a'.repeat(n);
            if (param.in === 'path') await send(`${param.name}:${String(n)}`, path({ [param.name]: value }));
            if (param.in === 'query') await send(`${param.name}:${String(n)}`, `${path()}?${new URLSearchParams({ tenantId: 'acme', [param.name]: value }).toString()}`);
          }
        }
        const jsonSchema = operation.requestBody?.content['application/json']?.schema;
        if (body) for (const [label, mutated] of mutations(doc, jsonSchema, body)) await send(label, path(), { json: mutated });
        if (method === 'POST') for (const n of [255, 256, 5000]) await send(`Idempotency-Key:${String(n)}`, path(), { headers: { 'idempotency-key': 'k'.repeat(n) } });
      }
    }
    expect(probes).toBeGreaterThan(250);
    expect(problems).toEqual([]);
  });
});
