/**
 * The public verification routes over HTTP (DynamoDB Local behind them): a completed envelope's sealed file is known
 * by its SHA-256 and by the ids its certificate prints, with no names, emails or ids in the answer; the validator
 * passes the downloaded seal against the root the local stack publishes.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { inject, beforeAll, describe, expect, it } from 'vitest';
import { verifyPdf } from '#shared/verify/verify-document.ts';
import { hex, sha256 } from '#shared/verify/verify-chain.ts';
import { pemCertificates, type ServiceRecord, type VerificationReport } from '#shared/verify/verify-report.ts';
import { call, expectErrorShape, newApp } from '#test/support/api.ts';
import { createWithPdf, sigField, signer, type EnvelopeBody } from '#test/support/envelopes.ts';
import { makePdf } from '#test/support/pdfs.ts';
import { pdftotext, tempPdf } from '#test/support/validators.ts';
import { passGates, settle, signing, tokenOf, valuesFor, type ContextBody } from '#test/support/signing.ts';

const execFileAsync = promisify(execFile);

let token: string;
let envelope: EnvelopeBody;
let sealed: Uint8Array;
const email = `verify.${String(Date.now())}@example.com`;
const name = 'Verifiable Signer';

beforeAll(async () => {
  token = (await newApp('verification')).token;
  const created = await createWithPdf(token, {
    tenantId: 'verify', subject: 'Verified contract', signers: [signer(email, 1, { authMethod: 'none', name })], fields: [sigField(0)],
  }, await makePdf({ pages: 1 }));
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const sent = await call<EnvelopeBody>('POST', `/v1/envelopes/${created.body.id}/send`, { token });
  const link = tokenOf(sent.body.signers[0]?.signingUrl);
  await passGates(link, null);
  const context = (await signing<ContextBody>('GET', link)).body;
  expect((await signing('POST', link, '/sign', { fields: valuesFor(context) })).status).toBe(200);
  await settle();
  envelope = (await call<EnvelopeBody>('GET', `/v1/envelopes/${created.body.id}`, { token })).body;
  expect(envelope.status).toBe('completed');
  sealed = (await call('GET', `/v1/envelopes/${envelope.id}/document?kind=sealed`, { token })).bytes;
}, 120_000);

const idOf = (document: Record<string, unknown> | undefined): string => (typeof document?.id === 'string' ? document.id : '');

const noPersonalData = (body: unknown) => {
  const text = JSON.stringify(body);
  for (const secret of [envelope.id, email, name, 'Verified contract', ...envelope.documents.map((d) => idOf(d))]) expect(text).not.toContain(secret);
};

describe('GET /v1/verify/{sha256}', () => {
  it('answers without authentication what the service recorded about the sealed file, naming nobody', async () => {
    const hash = createHash('sha256').update(sealed).digest('hex');
    expect(hash).toBe(envelope.documentHashFinal);
    const answer = await call<ServiceRecord>('GET', `/v1/verify/${hash}`);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      sealedByThisService: true, status: 'completed', completedAt: (envelope as unknown as { completedAt: string }).completedAt, documentCount: 1, signerCount: 1,
      padesLevel: 'B-LTA', auditChainHead: expect.stringMatching(/^[0-9a-f]{64}$/) as unknown, auditChainHeadEvent: expect.any(Number) as unknown,
    });
    noPersonalData(answer.body);
    expect(answer.headers.get('x-ratelimit-limit')).toMatch(/^\d+$/);
    // the head the certificate printed is the entry before envelope.sealed
    const log = envelope.auditLog ?? [];
    const sealedAt = log.findIndex((e) => e.event === 'envelope.sealed');
    expect(answer.body.auditChainHeadEvent).toBe(sealedAt); // seq is 1-based: the entry before is seq sealedAt
    expect((await call('GET', `/v1/verify/${hash.toUpperCase()}`)).status).toBe(200);
  });

  it('404 for an unknown hash, the original file, and anything that is not a hash', async () => {
    for (const path of [`/v1/verify/${'0'.repeat(64)}`, `/v1/verify/${envelope.documentHashOriginal ?? ''}`, '/v1/verify/not-a-hash']) {
      const answer = await call('GET', path);
      expect(answer.status, path).toBe(404);
      expectErrorShape(answer.body, 'not_found', 404);
    }
  });

  it('through the signing host too (the page asks on its own origin)', async () => {
    const response = await fetch(`${inject('signingUrl')}/v1/verify/${envelope.documentHashFinal ?? ''}`);
    expect(response.status).toBe(200);
    expect(((await response.json()) as ServiceRecord).sealedByThisService).toBe(true);
  });
});

describe('GET /v1/verify/{envelopeId}/{documentId}', () => {
  it('by the ids the certificate prints (the original document), with the sealed file\'s sha256', async () => {
    const original = envelope.documents.find((d) => d.kind === 'original');
    const answer = await call<ServiceRecord>('GET', `/v1/verify/${envelope.id}/${idOf(original)}`);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ sealedByThisService: true, sha256: envelope.documentHashFinal, documentCount: 1 });
    // the audit certificate prints this very address (and draws it as a QR code)
    const printed = pdftotext(tempPdf(sealed)).replace(/\s+/g, '');
    expect(printed).toContain(`${inject('signingUrl')}/verify#${envelope.id}.${idOf(original)}`);
    const prefixed = await call<ServiceRecord>('GET', `/v1/verify/env_${envelope.id}/doc_${idOf(original)}`);
    expect(prefixed.body.sha256).toBe(envelope.documentHashFinal);
  });

  it('404 for ids that do not belong together', async () => {
    const other = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';
    for (const path of [`/v1/verify/${envelope.id}/${other}`, `/v1/verify/${other}/${idOf(envelope.documents[0])}`, '/v1/verify/x/y']) {
      const answer = await call('GET', path);
      expect(answer.status, path).toBe(404);
      expectErrorShape(answer.body, 'not_found', 404);
    }
  });
});

describe('GET /v1/verify/roots.pem', () => {
  it('publishes, without authentication, the root of the seal chain: locally the local CA\'s root', async () => {
    const answer = await call('GET', '/v1/verify/roots.pem');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/x-pem-file');
    expect(answer.headers.get('x-ratelimit-limit')).toMatch(/^\d+$/);
    const published = Buffer.from(answer.bytes).toString('utf8');
    const localRoot = Buffer.from((await call('GET', '/_local/pki/root.pem')).bytes).toString('utf8');
    expect(pemCertificates(published).map((der) => hex(der))).toEqual(pemCertificates(localRoot).map((der) => hex(der)));
    const viaSigningHost = await fetch(`${inject('signingUrl')}/v1/verify/roots.pem`);
    expect(viaSigningHost.status).toBe(200);
    expect(await viaSigningHost.text()).toBe(published);
  });

  it('npm run verify -- --service <url> trusts what the service publishes and shows its record (exit 0)', async () => {
    const file = tempPdf(sealed);
    const run = await execFileAsync('npx', ['tsx', 'infra/verify-cli.ts', file, '--json', '--service', inject('signingUrl')], { encoding: 'utf8' });
    const report = JSON.parse(run.stdout) as VerificationReport;
    expect(report.indication).toBe('TOTAL_PASSED');
    expect(report.signatures[0]).toMatchObject({ kind: 'seal', trust: 'service', padesLevel: 'B-LTA' });
    expect(report.service).toMatchObject({ sealedByThisService: true, padesLevel: 'B-LTA' });
    const untrusted = await execFileAsync('npx', ['tsx', 'infra/verify-cli.ts', file], { encoding: 'utf8' }).catch((error: unknown) => error as { code: number; stdout: string });
    expect(untrusted.stdout).toContain('NO_CERTIFICATE_CHAIN_FOUND');
  }, 60_000);
});

describe('the validator on the downloaded seal', () => {
  it('TOTAL_PASSED B-LTA against the root the local stack publishes, with the service record', async () => {
    const rootPem = Buffer.from((await call('GET', '/_local/pki/root.pem')).bytes).toString('utf8');
    const service = await Promise.all(pemCertificates(rootPem).map(async (der) => hex(await sha256(der))));
    const record = (await call<ServiceRecord>('GET', `/v1/verify/${envelope.documentHashFinal ?? ''}`)).body;
    const report = await verifyPdf(sealed, { anchors: { service, configured: [] }, service: record });
    expect(report.indication, JSON.stringify(report.signatures.map((s) => s.reasons))).toBe('TOTAL_PASSED');
    expect(report.signatures.map((s) => [s.kind, s.padesLevel])).toEqual([['seal', 'B-LTA'], ['document-timestamp', null]]);
    expect(report.service).toEqual(record);
    // the level the service recorded at sealing is the one the file proves
    expect(record.padesLevel).toBe(report.signatures[0]?.padesLevel);
  });
});
