/**
 * The CSC v2 seal adapter against the local CSC provider (local/engines/csc.ts), which signs with real keys and
 * enforces tokens, PINs and SADs as a remote QSCD does. The provider's clock and the adapter's are a test clock.
 */
import { X509Certificate, createHash, verify } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CscDocumentSigner, CscError, credentialOf, type CscSettings } from '#shared/adapters/http/csc-signer.ts';
import { startCscMock, type RunningCsc } from '#local/engines/csc.ts';
import { sealPdf } from '#shared/sealing/seal.ts';
import { makePdf } from '#test/support/pdfs.ts';
import { lastSignature, opensslCmsVerify } from '#test/pdf/signature-tools.ts';

let csc: RunningCsc;
let time = Date.parse('2026-03-01T12:00:00Z');
const clock = { now: () => new Date(time) };

beforeAll(async () => { csc = await startCscMock({ now: clock.now, sadSeconds: 300 }); });
afterAll(async () => { await csc.stop(); });
afterEach(() => { Object.assign(csc.faults, { stall: null, wrongSignature: false, beforeSignHash: null }); });

const settings = (overrides: Partial<CscSettings> = {}): CscSettings => ({
  baseUrl: csc.baseUrl, clientId: csc.clientId, clientSecret: csc.clientSecret, credentialId: csc.credentials.rsa, pin: csc.pin, ...overrides,
});
const signer = (overrides: Partial<CscSettings> = {}, timeoutMs?: number) => new CscDocumentSigner(settings(overrides), { clock, ...(timeoutMs ? { timeoutMs } : {}) });
const message = (text: string) => Buffer.from(text);
const digestOf = (text: string) => new Uint8Array(createHash('sha256').update(message(text)).digest());

describe('CscDocumentSigner', () => {
  it.each([['rsa', 'rsa-sha256'], ['ec', 'ecdsa-sha256']] as const)('signs a digest with the %s credential: the chain and algorithm from credentials/info, a signature that verifies under its certificate', async (kind, algorithm) => {
    const s = signer({ credentialId: csc.credentials[kind] });
    const chain = await s.certificateChain();
    expect(chain).toHaveLength(2);
    expect(s.algorithm).toBe(algorithm);
    const [leaf, root] = chain.map((der) => new X509Certificate(der));
    expect(leaf!.checkIssued(root!) && leaf!.verify(root!.publicKey)).toBe(true);
    expect(root!.toString()).toBe(csc.rootPem);
    const signature = await s.signDigest(digestOf(`contract ${kind}`));
    // Checked over the message by node:crypto, independently of the adapter's own check over the digest.
    expect(verify('sha256', message(`contract ${kind}`), leaf!.publicKey, signature)).toBe(true);
  });

  it('seals a PDF whose CMS signature openssl verifies against the provider\'s root', async () => {
    const s = signer({ credentialId: csc.credentials.ec });
    const sealed = await sealPdf(await makePdf({ pages: 1 }), {
      items: [], signer: s, signingTime: clock.now(),
      certificate: {
        envelopeId: '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b', subject: 'Supply contract', originalSha256: 'ab'.repeat(32), originalPageCount: 1,
        createdAt: '2026-03-01T10:00:00.000Z', completedAt: '2026-03-01T12:00:00.000Z', chainHead: { seq: 1, hash: 'cd'.repeat(32) },
        documents: [{ name: 'Supply contract.pdf', sha256: 'ab'.repeat(32), pageCount: 1 }], signers: [], events: [],
      },
    });
    const { cms, content } = lastSignature(sealed.bytes);
    expect(opensslCmsVerify(cms, content, csc.rootPem)).toMatchObject({ ok: true });
  }, 30_000);

  it('refuses a wrong PIN with the provider\'s error, and never puts the PIN or the client secret in the message', async () => {
    const error = await signer({ pin: '999999' }).signDigest(digestOf('wrong pin')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CscError);
    expect(error).toMatchObject({ status: 400, error: 'invalid_pin' });
    expect((error as Error).message).toContain('credentials/authorize answered 400 invalid_pin');
    expect((error as Error).message).not.toContain('999999');
    const client = await signer({ clientSecret: 'not-the-secret' }).certificateChain().catch((e: unknown) => e);
    expect(client).toMatchObject({ status: 401, error: 'invalid_client' });
    expect((client as Error).message).not.toContain('not-the-secret');
  });

  it('names the client\'s credentials when the configured one is not among them', async () => {
    await expect(signer({ credentialId: 'no-such-seal' }).certificateChain()).rejects.toThrow('Credential no-such-seal is not among this client\'s credentials (local-seal-rsa, local-seal-ec)');
  });

  it('refuses a credential that needs a PIN when none is configured, before asking for a SAD', async () => {
    await expect(signer({ pin: null }).signDigest(digestOf('no pin'))).rejects.toThrow('asks for a PIN and none is configured (CSC_PIN)');
  });

  it('fails when the SAD has expired by the time it is used', async () => {
    csc.faults.beforeSignHash = () => { time += 301_000; };
    await expect(signer().signDigest(digestOf('late'))).rejects.toMatchObject({ status: 400, error: 'invalid_request', message: expect.stringContaining('SAD expired') as unknown });
  });

  it('refuses a signature that does not verify against the credential\'s certificate, before anything embeds it', async () => {
    csc.faults.wrongSignature = true;
    await expect(signer().signDigest(digestOf('tampered'))).rejects.toThrow(/does not verify against the certificate of credential local-seal-rsa: not embedded/);
    await expect(signer({ credentialId: csc.credentials.ec }).signDigest(digestOf('tampered'))).rejects.toThrow(/does not verify/);
  });

  it('gives up on a provider that does not answer within the time limit', async () => {
    csc.faults.stall = 'signatures/signHash';
    await expect(signer({}, 200).signDigest(digestOf('stalled'))).rejects.toThrow('signatures/signHash did not answer within 200 ms');
  });

  it('asks for a new token after the provider refused the one it had', async () => {
    const s = signer();
    await s.certificateChain();
    csc.revokeTokens();
    await expect(s.signDigest(digestOf('revoked'))).rejects.toMatchObject({ status: 401, error: 'invalid_token' });
    expect((await s.signDigest(digestOf('again'))).length).toBeGreaterThan(0);
  });

  it('asks for a new token once the one it had is about to expire on the service clock', async () => {
    const s = signer();
    await s.certificateChain();
    time += 3600_000; // the provider's tokens last an hour
    expect((await s.signDigest(digestOf('next hour'))).length).toBeGreaterThan(0);
  });
});

describe('credentialOf', () => {
  const info = async () => {
    const chain = await signer().certificateChain();
    return { key: { status: 'enabled', algo: ['1.2.840.113549.1.1.1'] }, cert: { status: 'valid', certificates: chain.map((d) => Buffer.from(d).toString('base64')) }, auth: { mode: 'explicit' as const, objects: [{ type: 'Password', id: 'PIN' }] } };
  };

  it('takes the algorithm from the certificate and the PIN from the authorization objects', async () => {
    expect(credentialOf('c', await info())).toMatchObject({ algorithm: 'rsa-sha256', needs: { pin: true, otp: false } });
    expect(credentialOf('c', { ...(await info()), auth: { mode: 'implicit' } })).toMatchObject({ needs: { pin: false, otp: false } });
  });

  it('refuses what an unattended seal cannot use: a user authorization, a disabled key, a revoked certificate, a key unlike its certificate, no certificate', async () => {
    const base = await info();
    expect(() => credentialOf('c', { ...base, auth: { mode: 'oauth2code' } })).toThrow('needs a user (oauth2code)');
    expect(() => credentialOf('c', { ...base, key: { status: 'disabled' } })).toThrow('its key is disabled');
    expect(() => credentialOf('c', { ...base, cert: { ...base.cert, status: 'revoked' } })).toThrow('its certificate is revoked');
    expect(() => credentialOf('c', { ...base, key: { status: 'enabled', algo: ['1.2.840.10045.2.1'] } })).toThrow('do not match its certificate');
    expect(() => credentialOf('c', { ...base, cert: { status: 'valid', certificates: [] } })).toThrow('returned no certificate');
  });
});
