import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { viewerEvent } from '#shared/http/viewer.ts';

const event = (headers: Record<string, string>): APIGatewayProxyEventV2 => ({
  version: '2.0', routeKey: 'GET /v1/signing/{token}', rawPath: '/v1/signing/t', rawQueryString: '', headers, isBase64Encoded: false,
  requestContext: {
    accountId: '1', apiId: 'a', domainName: 'd', domainPrefix: 'd', requestId: 'r', routeKey: 'r', stage: '$default', time: '', timeEpoch: 0,
    http: { method: 'GET', path: '/v1/signing/t', protocol: 'HTTP/1.1', sourceIp: '130.176.1.1', userAgent: 'Amazon CloudFront' },
  },
});

describe('the viewer behind the signing host', () => {
  it('is trusted only with the origin secret: CloudFront-Viewer-Address (IPv4 or IPv6) and the viewer\'s user agent', () => {
    const viaCloudFront = { 'x-origin-verify': 's3cret', 'user-agent': 'Mozilla/5.0 (iPhone)' };
    expect(viewerEvent(event({ ...viaCloudFront, 'cloudfront-viewer-address': '203.0.113.7:46532' }), 's3cret').requestContext.http)
      .toMatchObject({ sourceIp: '203.0.113.7', userAgent: 'Mozilla/5.0 (iPhone)' });
    expect(viewerEvent(event({ ...viaCloudFront, 'cloudfront-viewer-address': '2001:db8::7:46532' }), 's3cret').requestContext.http.sourceIp).toBe('2001:db8::7');
  });

  it('ignores the headers without the secret, with a wrong one, or when no secret is configured', () => {
    const spoofed = { 'cloudfront-viewer-address': '198.51.100.9:1', 'user-agent': 'spoof' };
    for (const [headers, secret] of [[spoofed, 's3cret'], [{ ...spoofed, 'x-origin-verify': 'guess' }, 's3cret'], [{ ...spoofed, 'x-origin-verify': 's3cret' }, null]] as const) {
      expect(viewerEvent(event(headers), secret).requestContext.http.sourceIp).toBe('130.176.1.1');
    }
    expect(viewerEvent(event({ 'x-origin-verify': 's3cret', 'cloudfront-viewer-address': 'not-an-ip:1' }), 's3cret').requestContext.http.sourceIp).toBe('130.176.1.1');
  });
});
