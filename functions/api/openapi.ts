import { json, respond, route } from '#shared/http/endpoint.ts';
import { lambda } from '#shared/http/lambda.ts';
import { OpenApiDocumentResponse } from '#shared/http/error-schemas.ts';

export const definition = route({
  method: 'GET', path: '/v1/openapi.json', auth: 'none', tag: 'Meta',
  operationId: 'getOpenApi', summary: 'This API as an OpenAPI 3.1 document',
  description: 'This document, generated from the route declarations. The rendered reference is served at `/docs`.',
  success: { status: 200, description: 'This document', content: json(OpenApiDocumentResponse) },
  errors: {},
  // The document is generated from the route declarations at build time and shipped beside the bundle: no data, no
  // secret (only its rate counter).
  access: { apiDescription: true },
}, (deps) => async () => {
  const document = { ...(await deps.apiDescription.document()), servers: [{ url: deps.config.baseUrl }] };
  return respond(OpenApiDocumentResponse, document, 200, { 'cache-control': 'public, max-age=300' });
});

export const handler = lambda(definition);
