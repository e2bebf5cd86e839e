/**
 * `npm start` with SIGNER=csc, over HTTP: the seal is signed by the local CSC v2 provider's credential and validates
 * against that provider's root (served at /_local/csc/root.pem); a signature the provider gets wrong fails the round
 * without reaching the PDF, and the seal sweep's next round completes the envelope. This suite starts a stack of its own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalStack, type LocalStack } from '#local/stack.ts';
import { allSignatures, opensslCmsVerify } from '#test/pdf/signature-tools.ts';
import { makePdf, PNG_1X1 } from '#test/support/pdfs.ts';
import { pdfsig, tempPdf } from '#test/support/validators.ts';

let stack: LocalStack;
let token: string;

interface Response<T> { status: number; body: T; bytes: Uint8Array }
async function call<T = Record<string, unknown>>(method: string, path: string, init: { json?: unknown; form?: FormData | URLSearchParams; auth?: boolean } = {}): Promise<Response<T>> {
  const headers: Record<string, string> = init.auth === false ? {} : { authorization: `Bearer ${token}` };
  if (init.json !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${stack.apiUrl}${path}`, { method, headers, body: init.json !== undefined ? JSON.stringify(init.json) : init.form });
  const bytes = new Uint8Array(await response.arrayBuffer());
  const json = response.headers.get('content-type')?.includes('json') && bytes.length > 0;
  return { status: response.status, body: (json ? JSON.parse(Buffer.from(bytes).toString('utf8')) : undefined) as T, bytes };
}

interface Envelope { id: string; status: string; signers: { signingUrl: string | null }[]; auditLog?: { event: string; detail?: Record<string, unknown> }[] }

beforeAll(async () => {
  stack = await startLocalStack({ port: 0, signingPort: 0, signer: 'csc' });
  const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: stack.devApp.clientId, client_secret: stack.devApp.clientSecret });
  token = (await call<{ access_token: string }>('POST', '/oauth/token', { form, auth: false })).body.access_token;
}, 120_000);
afterAll(async () => { await stack.stop(); });

const settle = async (advanceSeconds = 0) => { expect((await call('POST', '/_local/clock', { json: { advanceSeconds } })).status).toBe(200); };

/** An envelope with one signer (no code), sent and signed; sealing then runs in the background. */
async function signed(subject: string): Promise<string> {
  const form = new FormData();
  form.append('data', JSON.stringify({
    tenantId: 'csc', subject, signers: [{ name: 'Ada Signer', email: `ada.${String(Date.now())}@example.com`, routingOrder: 1, authMethod: 'none' }],
    fields: [{ signerIndex: 0, type: 'signature', page: 1, x: 72, y: 72, w: 180, h: 40 }],
  }));
  form.append('file', new Blob([await makePdf({ pages: 1 })], { type: 'application/pdf' }), 'contract.pdf');
  const created = await call<Envelope>('POST', '/v1/envelopes', { form });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const sent = await call<Envelope>('POST', `/v1/envelopes/${created.body.id}/send`);
  const link = sent.body.signers[0]?.signingUrl?.split('/sign/')[1] ?? '';
  expect((await call('POST', `/v1/signing/${link}/consent`, { auth: false })).status).toBe(200);
  const context = await call<{ fields: { id: string }[] }>('GET', `/v1/signing/${link}`, { auth: false });
  const fields = context.body.fields.map((f) => ({ fieldId: f.id, signatureImageBase64: Buffer.from(PNG_1X1).toString('base64') }));
  expect((await call('POST', `/v1/signing/${link}/sign`, { json: { fields }, auth: false })).status).toBe(200);
  await settle();
  return created.body.id;
}

const envelope = async (id: string) => (await call<Envelope>('GET', `/v1/envelopes/${id}`)).body;

describe('sealing through a CSC v2 provider (SIGNER=csc)', () => {
  it('seals with the provider\'s credential: pdfsig accepts the PDF, openssl verifies the seal against the provider\'s root (and not the local CA\'s)', async () => {
    const id = await signed('CSC sealed contract');
    expect((await envelope(id)).status).toBe('completed');
    const sealed = (await call('GET', `/v1/envelopes/${id}/document?kind=sealed`)).bytes;
    expect(pdfsig(tempPdf(sealed))).toContain('Signature is Valid.');
    const root = await call('GET', '/_local/csc/root.pem', { auth: false });
    expect(root.status).toBe(200);
    const rootPem = Buffer.from(root.bytes).toString('utf8');
    expect(rootPem).toBe(stack.csc?.rootPem);
    const [seal] = allSignatures(sealed);
    expect(opensslCmsVerify(seal!.cms, seal!.content, rootPem)).toMatchObject({ ok: true });
    const localCa = Buffer.from((await call('GET', '/_local/pki/root.pem', { auth: false })).bytes).toString('utf8');
    expect(opensslCmsVerify(seal!.cms, seal!.content, localCa)).toMatchObject({ ok: false });
  }, 120_000);

  it('fails the round when the provider\'s signature does not verify, records why, and completes on the seal sweep\'s next round', async () => {
    stack.csc!.faults.wrongSignature = true;
    const id = await signed('CSC retried contract');
    const failed = await envelope(id);
    expect(failed.status).not.toBe('completed');
    const failure = failed.auditLog?.find((e) => e.event === 'envelope.seal_failed');
    expect(String(failure?.detail?.error)).toContain('does not verify against the certificate of credential local-seal-rsa: not embedded');
    expect((await call('GET', `/v1/envelopes/${id}/document?kind=sealed`)).status).not.toBe(200);
    stack.csc!.faults.wrongSignature = false;
    await settle(10 * 60); // the sweep's first check on a round
    const done = await envelope(id);
    expect(done.status).toBe('completed');
    expect(done.auditLog?.map((e) => e.event)).toContain('envelope.seal_retried');
  }, 120_000);
});
