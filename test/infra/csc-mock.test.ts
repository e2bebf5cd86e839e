/**
 * The local CSC provider's contract, over raw HTTP: what a remote QSCD refuses (the adapter never tries these, so they
 * are checked here), each with the CSC error shape.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cscKeys } from '#local/engines/csc-credentials.ts';
import { startCscMock, type RunningCsc } from '#local/engines/csc.ts';
import { crlUrls } from '#shared/pki/certificate-authority.ts';

let csc: RunningCsc;
let token: string;
let time = Date.parse('2026-03-01T12:00:00Z');

beforeAll(async () => {
  csc = await startCscMock({ now: () => new Date(time), sadSeconds: 60 });
  const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: csc.clientId, client_secret: csc.clientSecret });
  token = ((await (await fetch(`${csc.baseUrl}/oauth2/token`, { method: 'POST', body: form })).json()) as { access_token: string }).access_token;
});
afterAll(async () => { await csc.stop(); });

const post = async (method: string, body: object, bearer = token) => {
  const response = await fetch(`${csc.baseUrl}/${method}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${bearer}` }, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};
const hash = (text: string) => createHash('sha256').update(text).digest('base64');
const SHA256 = '2.16.840.1.101.3.4.2.1';
const RSA_SHA256 = '1.2.840.113549.1.1.11';
const authorize = async (hashes: string[], numSignatures = hashes.length, pin = csc.pin) =>
  post('credentials/authorize', { credentialID: csc.credentials.rsa, numSignatures, hashes, hashAlgorithmOID: SHA256, authData: [{ id: 'PIN', value: pin }] });
const signHash = (SAD: unknown, hashes: string[]) => post('signatures/signHash', { credentialID: csc.credentials.rsa, SAD, hashes, hashAlgorithmOID: SHA256, signAlgo: RSA_SHA256 });
const refused = (description: string, error = 'invalid_request') => ({ status: 400, body: { error, error_description: expect.stringContaining(description) as unknown } });

describe('the local CSC v2 provider', () => {
  it('lists its credentials and describes one with its chain, key and PIN authorization', async () => {
    expect((await post('credentials/list', {})).body).toEqual({ credentialIDs: [csc.credentials.rsa, csc.credentials.ec] });
    const info = await post('credentials/info', { credentialID: csc.credentials.ec, certificates: 'chain', certInfo: true, authInfo: true });
    expect(info.body).toMatchObject({
      key: { status: 'enabled', algo: ['1.2.840.10045.2.1'], curve: '1.2.840.10045.3.1.7' },
      cert: { status: 'valid', certificates: [expect.any(String), expect.any(String)] },
      auth: { mode: 'explicit', objects: [{ id: 'PIN' }] },
    });
  });

  it('refuses a missing or unknown token, and wrong client credentials', async () => {
    expect(await post('credentials/list', {}, 'forged')).toEqual({ status: 401, body: { error: 'invalid_token', error_description: 'The access token is not valid' } });
    const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: csc.clientId, client_secret: 'wrong' });
    const response = await fetch(`${csc.baseUrl}/oauth2/token`, { method: 'POST', body: form });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: 'invalid_client' });
  });

  it('refuses a wrong PIN', async () => {
    expect(await authorize([hash('a')], 1, '000000')).toEqual({ status: 400, body: { error: 'invalid_pin', error_description: 'The PIN is invalid' } });
  });

  it('uses a SAD once: a second signHash with it is refused', async () => {
    const { body } = await authorize([hash('once')]);
    expect((await signHash(body.SAD, [hash('once')])).status).toBe(200);
    expect(await signHash(body.SAD, [hash('once')])).toMatchObject(refused('Invalid parameter SAD'));
  });

  it('binds a SAD to the hashes it was issued for', async () => {
    const { body } = await authorize([hash('authorized')]);
    expect(await signHash(body.SAD, [hash('another document')])).toMatchObject(refused('not authorized by the SAD'));
    expect((await signHash(body.SAD, [hash('authorized')])).status).toBe(200);
  });

  it('enforces numSignatures: as many hashes as signatures at authorization, no more signatures than it allows', async () => {
    expect(await authorize([hash('x')], 2)).toMatchObject(refused('numSignatures does not match the number of hashes'));
    const { body } = await authorize([hash('one'), hash('two')], 2);
    expect((await signHash(body.SAD, [hash('one')])).status).toBe(200);
    expect(await signHash(body.SAD, [hash('one')])).toMatchObject(refused('not authorized by the SAD'));
    expect((await signHash(body.SAD, [hash('two')])).status).toBe(200);
    expect(await signHash(body.SAD, [hash('two')])).toMatchObject(refused('Invalid parameter SAD'));
    const pair = await authorize([hash('three'), hash('four')], 2);
    expect(await signHash(pair.body.SAD, [hash('three'), hash('four'), hash('five')])).toMatchObject(refused('numSignatures'));
  });

  it('lets a SAD expire after its lifetime', async () => {
    const { body } = await authorize([hash('expiring')]);
    expect(body.expiresIn).toBe(60);
    time += 60_000;
    expect(await signHash(body.SAD, [hash('expiring')])).toMatchObject(refused('SAD expired'));
  });

  it('refuses a SAD of another credential and a signature algorithm unlike the key', async () => {
    const { body } = await authorize([hash('rsa only')]);
    const other = await post('signatures/signHash', { credentialID: csc.credentials.ec, SAD: body.SAD, hashes: [hash('rsa only')], hashAlgorithmOID: SHA256, signAlgo: '1.2.840.10045.4.3.2' });
    expect(other).toMatchObject(refused('Invalid parameter SAD'));
    expect(await post('signatures/signHash', { credentialID: csc.credentials.rsa, SAD: body.SAD, hashes: [hash('rsa only')], hashAlgorithmOID: SHA256, signAlgo: '1.2.840.10045.4.3.2' })).toMatchObject(refused('signAlgo'));
  });

  it('serves its root\'s CRL, which the credentials\' certificates name', async () => {
    const response = await fetch(csc.crlUrl);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pkix-crl');
  });
});

describe('the local CSC provider\'s keys in a data directory', () => {
  it('keeps its root and credentials between starts, and certifies the credentials again when its CRL address moved', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'esign-csc-'));
    try {
      const first = await cscKeys(dir, 'http://127.0.0.1:1/crl/root.crl');
      const again = await cscKeys(dir, 'http://127.0.0.1:1/crl/root.crl');
      expect(again.root.cert).toEqual(first.root.cert);
      expect(again.credentials.map((c) => c.chain)).toEqual(first.credentials.map((c) => c.chain));
      const moved = await cscKeys(dir, 'http://127.0.0.1:2/crl/root.crl');
      expect(moved.root.cert).toEqual(first.root.cert);
      for (const c of moved.credentials) expect(crlUrls(c.chain[0]!)).toEqual(['http://127.0.0.1:2/crl/root.crl']);
      expect(moved.credentials.map((c) => c.key.export({ type: 'pkcs8', format: 'der' }))).toEqual(first.credentials.map((c) => c.key.export({ type: 'pkcs8', format: 'der' })));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
