import { createHash, X509Certificate } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { archiveTimestampOf } from '#shared/sealing/archive-timestamp.ts';
import { call, newApp, tokenFor } from '#test/support/api.ts';
import { readyDraft, sigField, signer, type EnvelopeBody } from '#test/support/envelopes.ts';
import { passGates, settle, signing, tokenOf, valuesFor, type ContextBody } from '#test/support/signing.ts';
import { pdfsig, tempPdf } from '#test/support/validators.ts';
import { allSignatures, opensslTsVerify, startsWith } from '#test/pdf/signature-tools.ts';

const DAY = 86_400;
const unique = (name: string) => `${name}.${String(Date.now())}@example.com`;
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const serviceNow = async () => new Date((await call<{ now: string }>('POST', '/_local/clock', { json: { advanceSeconds: 0, runJobs: false } })).body.now);

/** One signer (no authentication) signs a draft of `tenantId`; the envelope is sealed and completed. */
async function sealedEnvelope(token: string, tenantId: string): Promise<string> {
  const draft = await readyDraft(token, tenantId, { signers: [signer(unique('archivist'), 1, { authMethod: 'none' })], fields: [sigField(0)] });
  const sent = (await call<EnvelopeBody>('POST', `/v1/envelopes/${draft.id}/send`, { token })).body;
  const link = tokenOf(sent.signers[0]?.signingUrl);
  await passGates(link, null);
  expect((await signing('POST', link, '/sign', { fields: valuesFor((await signing<ContextBody>('GET', link)).body) })).status).toBe(200);
  await settle();
  expect((await call<EnvelopeBody>('GET', `/v1/envelopes/${draft.id}`, { token })).body.status).toBe('completed');
  return draft.id;
}

/**
 * Every signature checked: pdfsig must list each and call each seal valid (poppler cannot check document timestamps and
 * says so: those it leaves unverified), and `openssl ts -verify` must verify each document timestamp against the local
 * root as at `at` (the service clock's time, ahead of the machine's).
 */
function verifyAll(pdf: Uint8Array, rootPem: string, at: Date): number {
  const report = pdfsig(tempPdf(pdf));
  const signatures = allSignatures(pdf);
  const stamps = signatures.filter((s) => s.subFilter === 'ETSI.RFC3161');
  expect(report.match(/^Signature #\d+:/gm), report).toHaveLength(signatures.length);
  expect(report.match(/Signature is Valid\./g), report).toHaveLength(signatures.length - stamps.length);
  expect(report.match(/Signature has not yet been verified\./g) ?? [], report).toHaveLength(stamps.length);
  for (const stamp of stamps) {
    const verified = opensslTsVerify(stamp.cms, createHash('sha256').update(stamp.content).digest(), rootPem, at);
    expect(verified, verified.output).toMatchObject({ ok: true });
  }
  return signatures.length;
}

describe('archive renewal on the service clock', () => {
  it('adds one document timestamp from the renewed local authority once the last one\'s certificate nears expiry, and no more', async () => {
    const app = await newApp('archive renewal');
    for (const [tenant, retentionDays] of [['archive-keep', 730], ['archive-drop', 90]] as const) {
      expect((await call('PUT', `/v1/console/tenants/${tenant}`, { token: app.token, json: { retentionDays } })).status).toBe(200);
    }
    const kept = await sealedEnvelope(app.token, 'archive-keep');
    const dropped = await sealedEnvelope(app.token, 'archive-drop');
    const download = async (id: string, token: string) => call('GET', `/v1/envelopes/${id}/document?kind=sealed`, { token });
    const before = (await download(kept, app.token)).bytes;
    const rootPem = Buffer.from((await call('GET', '/_local/pki/root.pem')).bytes).toString('utf8');
    const signed = verifyAll(before, rootPem, await serviceNow());
    const stamped = await archiveTimestampOf(before);
    if (!stamped) throw new Error('the sealed file has no document timestamp');
    const due = stamped.validUntil.getTime() - 90 * DAY * 1000;

    // An hour before the certificate's last 90 days the sweep leaves the file as it is...
    await settle(Math.floor((due - (await serviceNow()).getTime()) / 1000) - 3600);
    let token = await tokenFor(app.clientId, app.clientSecret);
    expect(sha256((await download(kept, token)).bytes)).toBe(sha256(before));

    // ...and within them it renews it.
    await settle(2 * 3600);
    token = await tokenFor(app.clientId, app.clientSecret);
    const renewed = (await download(kept, token)).bytes;
    expect(startsWith(renewed, before)).toBe(true);
    expect(renewed.length).toBeGreaterThan(before.length);
    const now = await serviceNow();
    expect(verifyAll(renewed, rootPem, now)).toBe(signed + 1);
    const added = allSignatures(renewed).at(-1);
    expect(added?.subFilter).toBe('ETSI.RFC3161');
    expect(added?.byteRange[2] ?? 0).toBeGreaterThan(before.length); // it covers what the file was, and the validation data after it
    const renewal = await archiveTimestampOf(renewed);
    expect(renewal?.genTime.getTime()).toBeGreaterThan(due);
    expect(renewal?.genTime.getTime()).toBeLessThanOrEqual(now.getTime());
    expect(new X509Certificate(renewal?.authorityCertificate ?? new Uint8Array()).fingerprint256).not.toBe(new X509Certificate(stamped.authorityCertificate).fingerprint256);
    expect(renewal?.validUntil.getTime()).toBeGreaterThan(stamped.validUntil.getTime() + 90 * DAY * 1000);
    const envelope = (await call<EnvelopeBody>('GET', `/v1/envelopes/${kept}`, { token })).body;
    expect(envelope.auditLog?.filter((e) => e.event === 'document.archive_renewed')).toHaveLength(1);
    expect(envelope.documents.find((d) => d.kind === 'sealed')?.sha256).toBe(sha256(renewed));
    expect((await call('GET', `/v1/envelopes/${kept}/audit/verify`, { token })).body).toMatchObject({ valid: true });

    // Another sweep finds the new timestamp good for long enough.
    await settle();
    expect(sha256((await download(kept, token)).bytes)).toBe(sha256(renewed));

    // The file whose retention ended first was deleted as usual, never renewed.
    const gone = (await call<EnvelopeBody>('GET', `/v1/envelopes/${dropped}`, { token })).body;
    expect(gone.documents.find((d) => d.kind === 'sealed')?.purgeStatus).toBe('purged');
    expect(gone.auditLog?.map((e) => e.event)).not.toContain('document.archive_renewed');
  }, 180_000);
});
