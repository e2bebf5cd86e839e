/**
 * `npm run client:generate`: the client's types (client/schema.d.ts) from the OpenAPI document, in the shape
 * openapi-typescript writes (`paths`, `webhooks`, `components`, `operations`), which openapi-fetch reads.
 * A small generator of our own: openapi-typescript wants TypeScript 5 and the project pins 6. It covers the JSON
 * Schema this document uses ($ref, type and type lists, enum, const, anyOf/oneOf/allOf, objects, arrays, records);
 * test/infra/client-schema.test.ts keeps the checked-in file equal to a fresh generation.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { buildOpenApi, type OpenApiDocument } from '#infra/openapi.ts';
import { isMainModule } from '../infra/main-module.ts';

type Json = Record<string, unknown>;
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const key = (name: string) => (/^[A-Za-z_$][\w$]*$/.test(name) || /^[1-9]\d*$/.test(name) ? name : JSON.stringify(name));
const indent = (text: string, by = '    ') => text.split('\n').join(`\n${by}`);
const comment = (text: unknown, pad: string) => (typeof text === 'string' && text !== ''
  ? `${pad}/** ${text.replace(/\*\//g, '*\\/').replace(/\n+/g, ' ')} */\n` : '');

/** `#/components/schemas/Envelope` -> `components["schemas"]["Envelope"]`. */
function refType(ref: string): string {
  const parts = ref.replace(/^#\//, '').split('/');
  const [head, ...rest] = parts;
  // A reference into a schema's properties is the property's type: `properties` is not a level of the TypeScript type.
  return `${head ?? ''}${rest.filter((part, i) => !(part === 'properties' && i > 1)).map((part) => `[${JSON.stringify(part)}]`).join('')}`;
}

function union(types: string[]): string {
  const unique = [...new Set(types)];
  return unique.length === 0 ? 'never' : unique.join(' | ');
}

function objectType(schema: Json): string {
  const properties = isObject(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  const lines = Object.entries(properties).map(([name, property]) => {
    const doc = isObject(property) ? comment(property.description, '    ') : '';
    return `${doc}    ${key(name)}${required.includes(name) ? '' : '?'}: ${typeOf(property)};`;
  });
  const extra = schema.additionalProperties;
  if (extra !== undefined && extra !== false) lines.push(`    [key: string]: ${extra === true || !isObject(extra) || Object.keys(extra).length === 0 ? 'unknown' : typeOf(extra)};`);
  return lines.length === 0 ? 'Record<string, never>' : `{\n${lines.join('\n')}\n}`;
}

function primitive(type: string, schema: Json): string {
  switch (type) {
    case 'string': return 'string';
    case 'integer': case 'number': return 'number';
    case 'boolean': return 'boolean';
    case 'null': return 'null';
    case 'array': return `${wrap(typeOf(schema.items ?? {}))}[]`;
    case 'object': return objectType(schema);
    default: return 'unknown';
  }
}

const wrap = (type: string) => (/^[\w."[\]]+$/.test(type) ? type : `(${type})`);

/** A JSON Schema as a TypeScript type. */
export function typeOf(value: unknown): string {
  if (!isObject(value)) return 'unknown';
  if (typeof value.$ref === 'string') return refType(value.$ref);
  if ('const' in value) return JSON.stringify(value.const);
  if (Array.isArray(value.enum)) return union(value.enum.map((item) => JSON.stringify(item)));
  for (const combinator of ['anyOf', 'oneOf'] as const) {
    const options = value[combinator];
    if (Array.isArray(options)) return union(options.map((option) => typeOf(option)));
  }
  if (Array.isArray(value.allOf)) return value.allOf.map((part) => wrap(typeOf(part))).join(' & ');
  const types = Array.isArray(value.type) ? (value.type as string[]) : typeof value.type === 'string' ? [value.type] : [];
  if (types.length === 0) return isObject(value.properties) ? objectType(value) : 'unknown';
  return union(types.map((type) => primitive(type, value)));
}

function parametersType(parameters: unknown): string {
  const list = Array.isArray(parameters) ? (parameters as Json[]) : [];
  const group = (where: string) => {
    const own = list.filter((p) => p.in === where);
    if (own.length === 0) return `        ${where}?: never;`;
    const allOptional = own.every((p) => p.required !== true);
    const fields = own.map((p) => `${comment(p.description, '            ')}            ${key(String(p.name))}${p.required === true ? '' : '?'}: ${typeOf(p.schema)};`);
    return `        ${where}${allOptional ? '?' : ''}: {\n${fields.join('\n')}\n        };`;
  };
  return `{\n${['query', 'header', 'path', 'cookie'].map(group).join('\n')}\n    }`;
}

function contentType(content: unknown): string {
  if (!isObject(content)) return 'never';
  const lines = Object.entries(content).map(([media, body]) => `            ${JSON.stringify(media)}: ${indent(typeOf(isObject(body) ? body.schema : undefined), '            ')};`);
  return `{\n${lines.join('\n')}\n        }`;
}

function responseType(response: unknown): string {
  if (!isObject(response)) return 'unknown';
  if (typeof response.$ref === 'string') return refType(response.$ref);
  const headers = isObject(response.headers) ? Object.keys(response.headers) : [];
  const headerLines = [...headers.map((name) => `            ${key(name)}?: string;`), '            [name: string]: unknown;'];
  const content = response.content === undefined ? '        content?: never;' : `        content: ${contentType(response.content)};`;
  return `{\n        headers: {\n${headerLines.join('\n')}\n        };\n${content}\n    }`;
}

function operationType(operation: Json): string {
  const body = isObject(operation.requestBody) ? operation.requestBody : undefined;
  const requestBody = body ? `    requestBody${body.required === true ? '' : '?'}: {\n        content: ${contentType(body.content)};\n    };` : '    requestBody?: never;';
  const responses = isObject(operation.responses) ? operation.responses : {};
  const lines = Object.entries(responses).map(([status, response]) => `${comment(isObject(response) ? response.description : undefined, '        ')}        ${key(status)}: ${indent(responseType(response))};`);
  return `{\n    parameters: ${parametersType(operation.parameters)};\n${requestBody}\n    responses: {\n${lines.join('\n')}\n    };\n}`;
}

function pathItems(items: Record<string, unknown>, operations: Map<string, string>): string {
  const entries = Object.entries(items).map(([path, item]) => {
    const methods = METHODS.map((method) => {
      const operation = isObject(item) ? item[method] : undefined;
      if (!isObject(operation)) return `        ${method}?: never;`;
      const id = String(operation.operationId);
      operations.set(id, operationType(operation));
      return `${comment(operation.summary, '        ')}        ${method}: operations[${JSON.stringify(id)}];`;
    });
    const none = '        parameters: {\n            query?: never;\n            header?: never;\n            path?: never;\n            cookie?: never;\n        };';
    return `    ${JSON.stringify(path)}: {\n${none}\n${methods.join('\n')}\n    };`;
  });
  return `{\n${entries.join('\n')}\n}`;
}

function componentGroup(group: unknown, render: (value: unknown) => string): string {
  if (!isObject(group) || Object.keys(group).length === 0) return 'never';
  const lines = Object.entries(group).map(([name, value]) => `${comment(isObject(value) ? value.description : undefined, '        ')}        ${key(name)}: ${indent(render(value), '        ')};`);
  return `{\n${lines.join('\n')}\n    }`;
}

/** The declaration file for `document`. */
export function generateSchemaTypes(document: OpenApiDocument): string {
  const operations = new Map<string, string>();
  const paths = pathItems(document.paths, operations);
  const webhooks = pathItems(document.webhooks, operations);
  const components = document.components as unknown as Json;
  const componentTypes = [
    `    schemas: ${componentGroup(components.schemas, typeOf)};`,
    `    responses: ${componentGroup(components.responses, responseType)};`,
    '    parameters: never;',
    '    requestBodies: never;',
    `    headers: ${componentGroup(components.headers, () => 'string')};`,
    '    pathItems: never;',
  ].join('\n');
  const operationLines = [...operations].map(([id, type]) => `    ${key(id)}: ${indent(type)};`).join('\n');
  return [
    '/**',
    ' * Generated by `npm run client:generate` from the OpenAPI document (infra/openapi.ts). Do not edit:',
    ' * test/infra/client-schema.test.ts fails when this file differs from a fresh generation.',
    ' */',
    '',
    `export interface paths ${paths}`,
    `export interface webhooks ${webhooks}`,
    `export interface components {\n${componentTypes}\n}`,
    'export type $defs = Record<string, never>;',
    `export interface operations {\n${operationLines}\n}`,
    '',
  ].join('\n');
}

/** The document the client is generated from: independent of any deployment's address. */
export const clientDocument = () => buildOpenApi({ serverUrl: 'http://127.0.0.1:3000' });

export const SCHEMA_FILE = resolve(import.meta.dirname, 'schema.d.ts');

if (isMainModule(import.meta.url)) {
  writeFileSync(SCHEMA_FILE, generateSchemaTypes(clientDocument()));
  console.log(`wrote ${SCHEMA_FILE}`);
}
