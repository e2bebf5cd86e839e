import { describe, expect, it } from 'vitest';
import { checkEmbedOrigins, EMBED_URL_SECONDS, issueEmbedTicket, openEmbedTicket, originProblem, returnUrlProblem } from '#shared/signing/embedding.ts';
import { mintEmbedToken, verifyEmbedToken } from '#shared/kernel/tokens.ts';
import { createEnvelope, sendEnvelope } from '#shared/envelopes/envelope.ts';
import { Gone, InvalidState, Unauthorized, ValidationError } from '#shared/kernel/errors.ts';
import { letterDocument, withPages, signerInput, testCtx } from '#test/support/domain.ts';

const T0 = new Date('2026-01-01T00:00:00.000Z');
const later = (seconds: number) => new Date(T0.getTime() + seconds * 1000);
const SECRET = 'a-test-secret-of-enough-length-0123456789';

function sent() {
  const field = (signerIndex: number) => ({ signerIndex, type: 'signature' as const, page: 1, x: 72, y: 72, w: 200, h: 40, required: true, origin: 'bottom-left' as const });
  const draft = createEnvelope({
    id: '0190f5d2-0000-7000-8000-0000000000ee', appId: 'app-1', tenantId: 'acme', subject: 'NDA', createdBy: null, expiresInDays: 10, fieldOrigin: 'bottom-left',
    ...withPages(letterDocument()), signers: [signerInput('a@example.com', 1, { embedded: true }), signerInput('b@example.com', 2)], fields: [field(0), field(1)],
  }, testCtx(T0)).after;
  return sendEnvelope(draft, null, testCtx(T0)).change.after;
}

describe('embedded signing URLs', () => {
  it('origins: HTTPS (or loopback http), origin only, at most 20', () => {
    expect(originProblem('https://app.example.com')).toBeNull();
    expect(originProblem('http://127.0.0.1:3000')).toBeNull();
    expect(originProblem('http://app.example.com')).toMatch(/HTTPS/);
    expect(originProblem('https://app.example.com/')).toMatch(/origin only/);
    expect(originProblem('javascript:alert(1)')).not.toBeNull();
    expect(returnUrlProblem('https://app.example.com/done?x=1')).toBeNull();
    expect(returnUrlProblem('ftp://app.example.com/')).not.toBeNull();
    expect(() => checkEmbedOrigins(Array.from({ length: 21 }, (_, i) => `https://a${String(i)}.example.com`))).toThrow(ValidationError);
    expect(checkEmbedOrigins(['https://a.example.com', 'https://a.example.com'])).toEqual(['https://a.example.com']);
  });

  it('only for a signer of the current group; a ticket lives 5 minutes and opens once', async () => {
    const envelope = sent();
    const [embedded, later2] = envelope.signers;
    if (!embedded || !later2) throw new Error('signers missing');
    expect(() => issueEmbedTicket(envelope, later2.id, null, testCtx(T0))).toThrow(InvalidState);
    expect(() => issueEmbedTicket(envelope, embedded.id, 'http://evil.example.com/', testCtx(T0))).toThrow(ValidationError);
    const issued = issueEmbedTicket(envelope, embedded.id, null, testCtx(T0));
    expect(issued.claims.expiresAt - issued.claims.issuedAt).toBe(EMBED_URL_SECONDS);
    expect(issued.change.audit.map((e) => e.event)).toEqual(['signer.embedded_url_issued']);
    const token = await mintEmbedToken(SECRET, issued.claims);
    await expect(verifyEmbedToken(SECRET, token, later(EMBED_URL_SECONDS + 1))).rejects.toMatchObject({ reason: 'link_expired' });
    expect((await verifyEmbedToken(SECRET, token, later(EMBED_URL_SECONDS + 1), 'allow')).signerId).toBe(embedded.id);
    const claims = await verifyEmbedToken(SECRET, token, later(60));
    const opened = openEmbedTicket(issued.change.after, claims, testCtx(later(60)));
    expect(opened.fresh).toMatchObject({ signerId: embedded.id, version: 1 }); // no link yet here: one is minted (a current one is handed on)
    expect(() => openEmbedTicket(opened.change.after, claims, testCtx(later(61)))).toThrow(Gone);
    const newer = issueEmbedTicket(issued.change.after, embedded.id, null, testCtx(later(30))).change.after;
    expect(() => openEmbedTicket(newer, claims, testCtx(later(60)))).toThrow(Unauthorized);
  });
});
