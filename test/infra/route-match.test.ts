/** The local router's and the no-route function's path matching: a literal segment beats a parameter, as on API Gateway. */
import { describe, expect, it } from 'vitest';
import { matchPath, pathPattern } from '#shared/http/route-match.ts';

const routes = ['/v1/verify/{sha256}', '/v1/verify/roots.pem', '/v1/verify/{envelopeId}/{documentId}'].map((path) => ({ name: path, path: pathPattern('GET', path) }));

describe('matchPath', () => {
  it('takes the route with fewer parameters, whatever the order', () => {
    for (const order of [routes, [...routes].reverse()]) {
      const literal = matchPath(order, 'GET', '/v1/verify/roots.pem');
      expect(literal.kind === 'found' && literal.route.name).toBe('/v1/verify/roots.pem');
      const hash = matchPath(order, 'GET', `/v1/verify/${'a'.repeat(64)}`);
      expect(hash).toMatchObject({ kind: 'found', params: { sha256: 'a'.repeat(64) } });
    }
    expect(matchPath(routes, 'POST', '/v1/verify/roots.pem').kind).toBe('method_not_allowed');
  });
});
