import { afterAll, describe, expect, it } from 'vitest';
import { verifySignature, verifySignatureV2 } from '#shared/webhooks/webhook-signature.ts';
import { call, newApp, tokenFor } from '#test/support/api.ts';
import { readyDraft } from '#test/support/envelopes.ts';
import { Receiver, type Received } from '#test/support/receiver.ts';
import { settle } from '#test/support/signing.ts';

const receiver = new Receiver();
afterAll(async () => { await receiver.stop(); });

/** Which of the keys verify a delivery's timestamped signature, judged at the time it was signed. */
function verifying(delivery: Received | undefined, keys: Record<string, string>): string[] {
  const nowSeconds = Number(delivery?.headers['x-service-timestamp']);
  return Object.entries(keys).filter(([, key]) => verifySignatureV2(delivery?.body ?? '', key, delivery?.headers['x-service-signature-v2'], { nowSeconds }).ok).map(([name]) => name);
}

describe('webhook secret rotation on the service clock', () => {
  it('both secrets sign until the overlap ends, then only the new one', async () => {
    const app = await newApp('rotation');
    const old = 'whsec-rotation-old-0123';
    const hook = await call<{ id: string }>('POST', '/v1/webhooks', { token: app.token, json: { url: await receiver.start(), events: ['envelope.created'], secret: old } });
    const rotation = await call<{ secret: string; previousSecretExpiresAt: string; signedWith: string }>('POST', `/v1/webhooks/${hook.body.id}/rotate-secret`, {
      token: app.token, json: { expireCurrentInHours: 1 },
    });
    expect(rotation.status).toBe(200);
    expect(rotation.body.signedWith).toBe('secret');
    const keys = { old, fresh: rotation.body.secret };

    await readyDraft(app.token, 'rotation');
    await settle();
    expect(verifying(receiver.received.at(-1), keys)).toEqual(['old', 'fresh']);
    expect(verifySignature(receiver.received.at(-1)?.body ?? '', keys.fresh, receiver.received.at(-1)?.headers['x-service-signature'])).toBe(true);

    await settle(3600);
    await readyDraft(await tokenFor(app.clientId, app.clientSecret), 'rotation');
    await settle();
    expect(receiver.received).toHaveLength(2);
    expect(verifying(receiver.received.at(-1), keys)).toEqual(['fresh']);
    // The header counts whole seconds: the delivery falls in the second the overlap ended, or later
    const endedSecond = Math.floor(Date.parse(rotation.body.previousSecretExpiresAt) / 1000);
    expect(Number(receiver.received.at(-1)?.headers['x-service-timestamp'])).toBeGreaterThanOrEqual(endedSecond);
  });
});
