import { timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';

/** The header CloudFront adds to requests it forwards; its value is a deployment secret. */
export const ORIGIN_VERIFY_HEADER = 'x-origin-verify';

const same = (a: string, b: string) => {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
};

/** `203.0.113.7:46532` or `2001:db8::1:46532` (CloudFront-Viewer-Address) -> the address without the port. */
function viewerAddress(header: string | undefined): string | null {
  const value = header?.trim();
  const colon = value?.lastIndexOf(':') ?? -1;
  const address = value && colon > 0 ? value.slice(0, colon).replace(/^\[|\]$/g, '') : null;
  return address && isIP(address) ? address : null;
}

/**
 * Behind the signing host's CloudFront the connection comes from an edge, so the audit trail and the per-IP limits
 * would see CloudFront's address. When the request carries the origin secret (so it did come through our
 * distribution), the viewer's address is CloudFront-Viewer-Address, which viewers cannot set themselves.
 */
export function viewerEvent(event: APIGatewayProxyEventV2, originSecret: string | null): APIGatewayProxyEventV2 {
  const given = event.headers[ORIGIN_VERIFY_HEADER];
  if (!originSecret || !given || !same(given, originSecret)) return event;
  const address = viewerAddress(event.headers['cloudfront-viewer-address']);
  if (!address) return event;
  const userAgent = event.headers['user-agent'] ?? event.requestContext.http.userAgent;
  return { ...event, requestContext: { ...event.requestContext, http: { ...event.requestContext.http, sourceIp: address, userAgent } } };
}
