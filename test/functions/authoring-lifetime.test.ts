/**
 * How long authoring URLs and sessions live, by the service clock (moved here in memory only): a URL 10 minutes until
 * opened; a session 60 minutes from its last renewal, and never past 8 hours from its opening.
 */
import { describe, expect, it } from 'vitest';
import { authoringWorld } from '#test/support/authoring.ts';

const MINUTE = 60;

async function issue(world: Awaited<ReturnType<typeof authoringWorld>>, envelopeId: string) {
  const issued = await world.call('POST', `/v1/envelopes/${envelopeId}/authoring-url`, { token: await world.apiToken(), json: {} });
  return { ticket: String(issued.body.url).split('/').at(-1) ?? '', expiresAt: String(issued.body.expiresAt) };
}

describe('an authoring URL unopened', () => {
  it('works for 10 minutes by the service clock, then says it expired', async () => {
    const world = await authoringWorld();
    const a = await world.draft('A');
    const late = await issue(world, a.id);
    expect(Date.parse(late.expiresAt) - world.now().getTime()).toBe(10 * MINUTE * 1000);
    const inTime = await issue(world, a.id);
    world.advance(10 * MINUTE - 1);
    expect((await world.call('POST', `/v1/authoring/${inTime.ticket}/open`)).status).toBe(200);
    world.advance(2);
    expect(await world.call('POST', `/v1/authoring/${late.ticket}/open`)).toMatchObject({ status: 401, body: { reason: 'link_expired' } });
  });
});

describe('an authoring session', () => {
  it('ends after 60 minutes without renewal', async () => {
    const world = await authoringWorld();
    const a = await world.draft('A');
    const { session, body } = await world.open('envelopes', a.id);
    expect(Date.parse(String(body.sessionExpiresAt)) - world.now().getTime()).toBe(60 * MINUTE * 1000);
    world.advance(59 * MINUTE);
    expect((await world.call('GET', `/v1/envelopes/${a.id}`, { token: session })).status).toBe(200);
    world.advance(2 * MINUTE);
    expect(await world.call('GET', `/v1/envelopes/${a.id}`, { token: session })).toMatchObject({ status: 401, body: { reason: 'session_expired' } });
    expect(await world.call('POST', '/v1/authoring/session', { token: session })).toMatchObject({ status: 401, body: { reason: 'session_expired' } });
  });

  it('lives while it is renewed, for the same draft only, and never past 8 hours from the opening', async () => {
    const world = await authoringWorld();
    const a = await world.draft('A');
    const opened = world.now().getTime();
    let { session } = await world.open('envelopes', a.id);
    let expiresAt = 0;
    for (let round = 0; round < 9; round++) {
      world.advance(50 * MINUTE);
      const renewed = await world.call('POST', '/v1/authoring/session', { token: session });
      expect(renewed.status, `renewal ${String(round)}`).toBe(200);
      session = String(renewed.body.session);
      expiresAt = Date.parse(String(renewed.body.sessionExpiresAt));
      expect(expiresAt).toBe(Math.min(world.now().getTime() + 60 * MINUTE * 1000, opened + 8 * 60 * MINUTE * 1000));
      expect((await world.call('GET', `/v1/envelopes/${a.id}`, { token: session })).status).toBe(200);
    }
    expect(expiresAt).toBe(opened + 8 * 60 * MINUTE * 1000);
    const b = await world.draft('B');
    expect((await world.call('GET', `/v1/envelopes/${b.id}`, { token: session })).status).toBe(404);
    world.advance((expiresAt - world.now().getTime()) / 1000 + 1);
    expect(await world.call('POST', '/v1/authoring/session', { token: session })).toMatchObject({ status: 401, body: { reason: 'session_expired' } });
  });
});
