/**
 * `npm run verify -- file.pdf [--json] [--trust root.pem]... [--service URL] [--at TIME]`: the verification page's
 * validator as a command; `--at` verifies as of another time (ISO 8601), e.g. after a certificate expires. Exit 0 when every signature passed, 1 when one failed, 2 when one is indeterminate or on a usage error.
 *
 * Trust: nothing by default. `--trust` adds the roots of a PEM file (configured anchors); `--service` asks the
 * running service what it recorded about the file's hash and trusts the root it publishes at /v1/verify/roots.pem.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { hex, sha256 } from '#shared/verify/verify-chain.ts';
import { verifyPdf } from '#shared/verify/verify-document.ts';
import { sha256RangesOnce } from '#shared/verify/node-digests.ts';
import { exitCodeOf, pemCertificates, type ServiceRecord, type VerificationReport } from '#shared/verify/verify-report.ts';

const USAGE = 'usage: npm run verify -- file.pdf [--json] [--trust root.pem]... [--service https://sign.example.com] [--at 2030-01-01T00:00:00Z]';

async function fingerprints(pem: string): Promise<string[]> {
  return Promise.all(pemCertificates(pem).map(async (der) => hex(await sha256(der))));
}

async function fromService(base: string, bytes: Uint8Array): Promise<{ record: ServiceRecord | null; roots: string[]; certificates: Uint8Array[] }> {
  const url = base.replace(/\/+$/, '');
  const answer = await fetch(`${url}/v1/verify/${hex(await sha256(bytes))}`);
  const record = answer.status === 200 ? ((await answer.json()) as ServiceRecord) : null;
  const root = await fetch(`${url}/v1/verify/roots.pem`).catch(() => null);
  const pem = root?.ok ? await root.text() : '';
  return { record, roots: await fingerprints(pem), certificates: pemCertificates(pem) };
}

export function describeReport(report: VerificationReport): string {
  const lines = [`${report.indication}${report.subIndication ? ` (${report.subIndication})` : ''}  sha256 ${report.sha256}`];
  if (report.error) lines.push(`  ${report.error}`);
  if (report.signatures.length === 0 && !report.error) lines.push('  The file carries no signature.');
  for (const s of report.signatures) {
    lines.push(`#${String(s.index)} ${s.kind}: ${s.indication}${s.subIndication ? ` (${s.subIndication})` : ''}${s.padesLevel ? `, PAdES ${s.padesLevel}` : ''}`);
    for (const reason of s.reasons) lines.push(`  ${reason}`);
    lines.push(`  signer: ${s.signer ?? 'unknown'}; issuer: ${s.issuer ?? 'unknown'}`);
    lines.push(`  chain root: ${s.rootSha256 ?? 'none'} (${s.trust})`);
    lines.push(`  covers the whole file: ${s.coversWholeFile ? 'yes' : 'no'}; intact: ${s.intact ? 'yes' : 'no'}`);
    if (s.claimedTime) lines.push(`  claimed signing time: ${s.claimedTime}`);
    if (s.timestampTime) lines.push(`  timestamped: ${s.timestampTime} by ${s.tsa ?? 'unknown'}`);
    for (const finding of s.revocationEmbedded) lines.push(`  revocation (${finding.source}, ${finding.issuedAt}): ${finding.certificate} is ${finding.status}`);
    for (const change of s.modifiedAfter) lines.push(`  changed after: ${change.description} (${change.object})${change.acceptable ? '' : ' [NOT ACCEPTABLE]'}`);
    for (const warning of s.warnings) lines.push(`  note: ${warning}`);
  }
  if (report.service) lines.push(`The service sealed this file at ${report.service.completedAt ?? '?'} (audit chain head event #${String(report.service.auditChainHeadEvent)} ${report.service.auditChainHead}).`);
  return lines.join('\n');
}

export async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, options: { json: { type: 'boolean' }, trust: { type: 'string', multiple: true }, service: { type: 'string' }, at: { type: 'string' } } });
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
    return 2;
  }
  const [file, ...extra] = parsed.positionals;
  const at = parsed.values.at === undefined ? new Date() : new Date(parsed.values.at);
  if (!file || extra.length > 0 || Number.isNaN(at.getTime())) {
    console.error(USAGE);
    return 2;
  }
  let bytes: Uint8Array;
  let trusted: string[];
  try {
    bytes = new Uint8Array(readFileSync(file));
    trusted = (parsed.values.trust ?? []).map((path) => readFileSync(path, 'utf8'));
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    return 2;
  }
  const configured = (await Promise.all(trusted.map(fingerprints))).flat();
  const service = parsed.values.service ? await fromService(parsed.values.service, bytes) : { record: null, roots: [], certificates: [] };
  const anchorCertificates = [...trusted.flatMap(pemCertificates), ...service.certificates];
  const report = await verifyPdf(bytes, { anchors: { service: service.roots, configured }, anchorCertificates, service: service.record, now: at, sha256Ranges: sha256RangesOnce });
  console.log(parsed.values.json ? JSON.stringify(report, null, 2) : describeReport(report));
  return exitCodeOf(report.indication);
}

if (import.meta.url === `file://${process.argv[1] ?? ''}`) process.exitCode = await main(process.argv.slice(2));
