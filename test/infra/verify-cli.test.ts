/**
 * `npm run verify`: exit codes 0 (passed), 1 (failed), 2 (indeterminate, usage), the JSON report, trust only from
 * `--trust` files. Run as the command a third party runs.
 */
import { execFile, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import type { VerificationReport } from '#shared/verify/verify-report.ts';
import { flipByte, tempFile } from '#test/pdf/signature-tools.ts';
import { foreignCa, foreignSealedPdf } from '#test/support/foreign-ca.ts';

let signed: string;
let withoutRevocation: string;
let bareRoot: string;
let tampered: string;
let rootFile: string;
beforeAll(async () => {
  const made = await foreignSealedPdf({ revocation: true });
  signed = tempFile(made.bytes, 'signed.pdf', made.dir);
  tampered = tempFile(flipByte(made.bytes, 200), 'tampered.pdf', made.dir);
  rootFile = made.rootFile;
  const bare = await foreignSealedPdf();
  withoutRevocation = tempFile(bare.bytes, 'bare.pdf', bare.dir);
  bareRoot = bare.rootFile;
});

const verify = (...args: string[]) => {
  const run = spawnSync('npx', ['tsx', 'infra/verify-cli.ts', ...args], { encoding: 'utf8' });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
};

describe('npm run verify', () => {
  it('exit 0 with the root trusted; the JSON report says TOTAL_PASSED with the configured root', () => {
    const run = verify(signed, '--json', '--trust', rootFile);
    expect(run.status, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as VerificationReport;
    expect(report).toMatchObject({ indication: 'TOTAL_PASSED', service: null });
    expect(report.signatures[0]).toMatchObject({ kind: 'signature', trust: 'configured', intact: true });
  });

  it('exit 2 with nothing trusted (NO_CERTIFICATE_CHAIN_FOUND), 1 for a changed byte (HASH_FAILURE), 2 for a usage error', () => {
    const untrusted = verify(signed);
    expect(untrusted.status).toBe(2);
    expect(untrusted.stdout).toContain('INDETERMINATE (NO_CERTIFICATE_CHAIN_FOUND)');
    const changed = verify(tampered, '--trust', rootFile);
    expect(changed.status).toBe(1);
    expect(changed.stdout).toContain('TOTAL_FAILED (HASH_FAILURE)');
    expect(verify().status).toBe(2);
    expect(verify(signed, '--bogus').status).toBe(2);
    expect(verify(signed, '--at', 'yesterday').status).toBe(2);
  });

  it('exit 2 without revocation data (TRY_LATER); with --at past the certificate\'s expiry and no timestamp, OUT_OF_BOUNDS_NO_POE', () => {
    const bare = verify(withoutRevocation, '--trust', bareRoot);
    expect(bare.status).toBe(2);
    expect(bare.stdout).toContain('INDETERMINATE (TRY_LATER)');
    const later = verify(signed, '--trust', rootFile, '--json', '--at', new Date(Date.now() + 30 * 86_400_000).toISOString());
    expect(later.status).toBe(2);
    const report = JSON.parse(later.stdout) as VerificationReport;
    expect(report).toMatchObject({ indication: 'INDETERMINATE', subIndication: 'OUT_OF_BOUNDS_NO_POE' });
    expect(report.signatures[0]?.validationTime).toBe(report.verifiedAt);
  });

  it('--trust supplies the root a signature leaves out (an @signpdf file carries only its signer\'s certificate)', async () => {
    const ca = foreignCa();
    const run = verify(tempFile(await ca.signedWithSignpdf(), 'signpdf.pdf', ca.dir), '--json', '--trust', ca.rootFile);
    const report = JSON.parse(run.stdout) as VerificationReport;
    expect(report, run.stderr).toMatchObject({ indication: 'INDETERMINATE', subIndication: 'TRY_LATER' });
    expect(report.signatures[0]).toMatchObject({ trust: 'configured', subFilter: 'adbe.pkcs7.detached', intact: true });
    expect(report.signatures[0]?.chain.map((c) => c.subject)).toEqual(['O=Elsewhere, CN=Foreign Seal', 'O=Elsewhere, CN=Foreign Test Root']);
  }, 30_000);

  it('--service trusts the root the service publishes at /v1/verify/roots.pem', async () => {
    const asked: string[] = [];
    const server = createServer((request, response) => {
      asked.push(request.url ?? '');
      if (request.url === '/v1/verify/roots.pem') response.writeHead(200, { 'content-type': 'application/x-pem-file' }).end(readFileSync(rootFile));
      else response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"code":"not_found"}}');
    });
    await new Promise<void>((listening) => { server.listen(0, '127.0.0.1', listening); });
    try {
      const url = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
      const run = await promisify(execFile)('npx', ['tsx', 'infra/verify-cli.ts', signed, '--json', '--service', url], { encoding: 'utf8' });
      const report = JSON.parse(run.stdout) as VerificationReport;
      expect(report).toMatchObject({ indication: 'TOTAL_PASSED', service: null });
      expect(report.signatures[0]).toMatchObject({ trust: 'service' });
      expect(asked).toContain('/v1/verify/roots.pem');
    } finally {
      server.close();
    }
  }, 30_000);
});
