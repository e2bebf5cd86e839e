/**
 * The dev clock and bearer tokens: moving the service clock an hour expires every token, the 401 says so with the
 * service time, and the typed client's clientCredentials middleware renews the token and resends the request.
 */
import { inject, describe, expect, it } from 'vitest';
import { clientCredentials, createEsignClient } from '../../client/index.ts';
import { call, newApp } from '#test/support/api.ts';

describe('bearer tokens on the moved service clock', () => {
  it('expires them, says why, and the client renews its token and retries', async () => {
    const app = await newApp('client token renewal');
    const requests: string[] = [];
    const counting: typeof fetch = (input, init) => {
      const request = input instanceof Request ? input : new Request(input, init);
      requests.push(`${request.method} ${new URL(request.url).pathname}`);
      return fetch(request);
    };
    const api = createEsignClient({ baseUrl: inject('apiUrl'), fetch: counting });
    api.use(clientCredentials({ baseUrl: inject('apiUrl'), clientId: app.clientId, clientSecret: app.clientSecret, fetch: counting }));
    expect((await api.GET('/v1/console/usage')).response.status).toBe(200);

    const moved = await call<{ accessTokens: string }>('POST', '/_local/clock', { json: { advanceSeconds: 3700 } });
    expect(moved.body.accessTokens).toMatch(/^tokens issued before/);
    const stale = await call('GET', '/v1/console/usage', { token: app.token });
    expect(stale.status).toBe(401);
    expect(stale.body).toMatchObject({ reason: 'token_expired', message: expect.stringMatching(/the service time is /) });

    requests.length = 0;
    const renewed = await api.GET('/v1/console/usage');
    expect(renewed.response.status).toBe(200);
    expect(requests).toEqual(['GET /v1/console/usage', 'POST /oauth/token', 'GET /v1/console/usage']);
  });
});
