import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';

/** Content types API Gateway passes as text; everything else arrives base64-encoded. */
const TEXT_TYPES = /^(application\/(json|[\w.+-]*\+json|x-www-form-urlencoded|xml)|text\/)/i;

function headerMap(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    headers[name.toLowerCase()] = Array.isArray(value) ? value.join(',') : value;
  }
  return headers;
}

function queryMap(search: URLSearchParams): Record<string, string> | undefined {
  const query: Record<string, string> = {};
  for (const key of new Set(search.keys())) query[key] = search.getAll(key).join(',');
  return Object.keys(query).length > 0 ? query : undefined;
}

/** The API Gateway HTTP API (payload 2.0) event for a local request, as the deployed functions receive it. */
export function toApiEvent(
  req: IncomingMessage, url: URL, body: Buffer, route: { key: string; params: Record<string, string> },
): APIGatewayProxyEventV2 {
  const headers = headerMap(req);
  const isText = TEXT_TYPES.test(headers['content-type'] ?? '');
  const now = new Date();
  const sourceIp = (req.socket.remoteAddress ?? '127.0.0.1').replace(/^::ffff:/, '');
  return {
    version: '2.0',
    routeKey: route.key,
    rawPath: url.pathname,
    rawQueryString: url.search.replace(/^\?/, ''),
    cookies: headers.cookie?.split(/;\s*/),
    headers,
    queryStringParameters: queryMap(url.searchParams),
    pathParameters: Object.keys(route.params).length > 0 ? route.params : undefined,
    requestContext: {
      accountId: 'local', apiId: 'local', domainName: headers.host ?? 'localhost', domainPrefix: 'local',
      http: { method: req.method ?? 'GET', path: url.pathname, protocol: `HTTP/${req.httpVersion}`, sourceIp, userAgent: headers['user-agent'] ?? '' },
      requestId: randomUUID(), routeKey: route.key, stage: '$default', time: now.toUTCString(), timeEpoch: now.getTime(),
    },
    body: body.length > 0 ? body.toString(isText ? 'utf8' : 'base64') : undefined,
    isBase64Encoded: body.length > 0 && !isText,
  };
}
