import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { clientDocument, generateSchemaTypes, SCHEMA_FILE, typeOf } from '../../client/generate.ts';

describe('the typed client (client/schema.d.ts)', () => {
  it('is what `npm run client:generate` writes from the current OpenAPI document (run it after changing a route)', () => {
    expect(readFileSync(SCHEMA_FILE, 'utf8')).toBe(generateSchemaTypes(clientDocument()));
  });

  it('writes JSON Schema as TypeScript: refs, nullable unions, enums, required and optional properties, records', () => {
    expect(typeOf({ $ref: '#/components/schemas/Envelope' })).toBe('components["schemas"]["Envelope"]');
    expect(typeOf({ $ref: '#/components/schemas/CreateEnvelopeRequest/properties/tenantId' })).toBe('components["schemas"]["CreateEnvelopeRequest"]["tenantId"]');
    expect(typeOf({ anyOf: [{ type: 'string' }, { type: 'null' }] })).toBe('string | null');
    expect(typeOf({ type: ['string', 'null'] })).toBe('string | null');
    expect(typeOf({ enum: ['a', 'b'] })).toBe('"a" | "b"');
    expect(typeOf({ const: 'Bearer' })).toBe('"Bearer"');
    expect(typeOf({ type: 'array', items: { anyOf: [{ type: 'integer' }, { type: 'null' }] } })).toBe('(number | null)[]');
    expect(typeOf({ type: 'object', properties: { a: { type: 'string' }, b: { type: 'boolean' } }, required: ['a'] }))
      .toBe('{\n    a: string;\n    b?: boolean;\n}');
    expect(typeOf({ type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } })).toBe('{\n    [key: string]: string[];\n}');
    expect(typeOf({})).toBe('unknown');
  });
});
