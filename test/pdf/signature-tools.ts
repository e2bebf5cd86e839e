/**
 * External validators for signed PDFs (poppler's pdfsig, qpdf, openssl) and helpers to take a PAdES
 * signature apart. Shared by the signing tests; needs `apt-get install poppler-utils qpdf openssl`.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as asn1js from 'asn1js';

const latin1 = (bytes: Uint8Array): string => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');

/** A fresh temporary directory for one test's files. */
export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'esign-sig-'));
}

/** Writes `bytes` into a fresh temporary directory and returns the path. */
export function tempFile(bytes: Uint8Array | string, name: string, dir = tempDir()): string {
  const file = join(dir, name);
  writeFileSync(file, bytes);
  return file;
}

function run(command: string, args: string[], input?: Uint8Array): { status: number | null; output: string; stdout: Buffer } {
  const result = spawnSync(command, args, { input, maxBuffer: 256 * 1024 * 1024 });
  if (result.error) throw result.error;
  return { status: result.status, output: `${result.stdout.toString()}${result.stderr.toString()}`, stdout: result.stdout };
}

/** pdfsig's report. It exits 0 even when a signature is broken, so callers read the text. */
export function pdfsig(bytes: Uint8Array): string {
  return run('pdfsig', [tempFile(bytes, 'signed.pdf')]).output;
}

/** `qpdf --check`: exit status and text (warnings make it exit 3). */
export function qpdfCheck(bytes: Uint8Array): { status: number | null; output: string } {
  return run('qpdf', ['--check', tempFile(bytes, 'checked.pdf')]);
}

export interface ExtractedSignature {
  byteRange: [number, number, number, number];
  /** The bytes the /ByteRange covers. */
  content: Uint8Array;
  /** The DER CMS, without the zero padding of /Contents. */
  cms: Uint8Array;
}

/** The last signature of the file: its /ByteRange, the content it covers and the CMS in /Contents. */
export function lastSignature(pdf: Uint8Array): ExtractedSignature {
  const ranges = [...latin1(pdf).matchAll(/\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/g)];
  const last = ranges[ranges.length - 1];
  if (!last) throw new Error('no /ByteRange in the PDF');
  const byteRange = [1, 2, 3, 4].map((i) => Number(last[i])) as ExtractedSignature['byteRange'];
  const [a, b, c, d] = byteRange;
  const content = Buffer.concat([pdf.subarray(a, a + b), pdf.subarray(c, c + d)]);
  const hex = latin1(pdf.subarray(b + 1, c - 1));
  const padded = Buffer.from(hex, 'hex');
  const parsed = asn1js.fromBER(padded);
  if (parsed.offset < 0) throw new Error('the /Contents hex string does not hold DER');
  return { byteRange, content: new Uint8Array(content), cms: new Uint8Array(padded.subarray(0, parsed.offset)) };
}

/** `openssl cms -verify` of a detached CMS; with `caPem`, the chain is checked against it, else not at all. */
export function opensslCmsVerify(cms: Uint8Array, content: Uint8Array, caPem?: string): { ok: boolean; output: string } {
  const dir = tempDir();
  const trust = caPem === undefined ? ['-noverify'] : ['-CAfile', tempFile(caPem, 'ca.pem', dir), '-partial_chain', '-purpose', 'any'];
  const args = ['cms', '-verify', '-binary', '-inform', 'DER', '-in', tempFile(cms, 'sig.der', dir)];
  const result = run('openssl', [...args, '-content', tempFile(content, 'content.bin', dir), ...trust, '-out', join(dir, 'out.bin')]);
  return { ok: result.status === 0 && result.output.includes('Verification successful'), output: result.output };
}

/** `openssl asn1parse` of DER, for readable assertions on structure. */
export function asn1parse(der: Uint8Array): string {
  return run('openssl', ['asn1parse', '-inform', 'DER', '-i'], der).output;
}

/** `openssl x509 -text` of a DER certificate. */
export function x509Text(der: Uint8Array): string {
  return run('openssl', ['x509', '-inform', 'DER', '-noout', '-text'], der).output;
}

/** Signs a SHA-256 digest as a KMS key would (MessageType DIGEST): openssl pkeyutl, independent of our code. */
export function opensslSignDigest(keyPem: string, digest: Uint8Array): Uint8Array {
  const result = run('openssl', ['pkeyutl', '-sign', '-inkey', tempFile(keyPem, 'key.pem'), '-pkeyopt', 'digest:sha256'], digest);
  if (result.status !== 0) throw new Error(`openssl pkeyutl failed: ${result.output}`);
  return new Uint8Array(result.stdout);
}

/** A copy of `bytes` with one byte changed at `at`. */
export function flipByte(bytes: Uint8Array, at: number): Uint8Array {
  const copy = new Uint8Array(bytes);
  copy[at] = (copy[at] ?? 0) ^ 0x01;
  return copy;
}

export const sha256 = (bytes: Uint8Array): Buffer => createHash('sha256').update(bytes).digest();

/** True when `prefix` is an exact byte prefix of `whole`. */
export function startsWith(whole: Uint8Array, prefix: Uint8Array): boolean {
  return whole.length >= prefix.length && Buffer.compare(whole.subarray(0, prefix.length), prefix) === 0;
}

export interface SignatureInFile extends ExtractedSignature {
  /** The signature dictionary's /SubFilter: ETSI.CAdES.detached or ETSI.RFC3161 (a document timestamp). */
  subFilter: string;
}

/** Every signature of the file, in file order (each /ByteRange with the /Contents it leaves out). */
export function allSignatures(pdf: Uint8Array): SignatureInFile[] {
  const text = latin1(pdf);
  return [...text.matchAll(/\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/g)].map((m) => {
    const byteRange = [1, 2, 3, 4].map((i) => Number(m[i])) as ExtractedSignature['byteRange'];
    const [a, b, c, d] = byteRange;
    const padded = Buffer.from(text.slice(b + 1, c - 1), 'hex');
    const dictStart = text.lastIndexOf('<<', m.index);
    const subFilter = /\/SubFilter\s*\/([\w.]+)/.exec(text.slice(dictStart, c + 200))?.[1] ?? '';
    const cms = new Uint8Array(padded.subarray(0, asn1js.fromBER(padded).offset));
    return { byteRange, content: new Uint8Array(Buffer.concat([pdf.subarray(a, a + b), pdf.subarray(c, c + d)])), cms, subFilter };
  });
}

/**
 * `openssl ts -verify` of a timestamp token (DER) against the SHA-256 digest it should stamp, trusting only `caPem`;
 * the chain as at `at` when given (a token from the local authority on a moved service clock), else now.
 */
export function opensslTsVerify(token: Uint8Array, digest: Uint8Array, caPem: string, at?: Date): { ok: boolean; output: string } {
  const dir = tempDir();
  const args = ['ts', '-verify', '-token_in', '-in', tempFile(token, 'token.der', dir), '-digest', Buffer.from(digest).toString('hex'), '-CAfile', tempFile(caPem, 'ca.pem', dir)];
  if (at) args.push('-attime', String(Math.floor(at.getTime() / 1000)));
  const result = run('openssl', args);
  return { ok: result.status === 0 && result.output.includes('Verification: OK'), output: result.output };
}

/** `openssl verify -crl_check` of a certificate (DER) against `caPem` with the CRL (DER) its issuer published. */
export function opensslVerifyWithCrl(certificate: Uint8Array, crl: Uint8Array, caPem: string): { ok: boolean; output: string } {
  const dir = tempDir();
  const crlPem = run('openssl', ['crl', '-inform', 'DER'], crl).stdout;
  const certPem = run('openssl', ['x509', '-inform', 'DER'], certificate).stdout;
  const result = run('openssl', ['verify', '-crl_check', '-CAfile', tempFile(caPem, 'ca.pem', dir), '-CRLfile', tempFile(crlPem, 'crl.pem', dir), tempFile(certPem, 'cert.pem', dir)]);
  return { ok: result.status === 0 && /: OK\s*$/.test(result.output.trim()), output: result.output };
}

/** `mutool sign -v`: MuPDF's own verdict on every signature. */
export function mutoolVerify(pdf: Uint8Array): string {
  return run('mutool', ['sign', '-v', tempFile(pdf, 'signed.pdf')]).output;
}

/** `mutool show FILE OBJECT`: an object as MuPDF reads it (e.g. "trailer/Root/DSS"). */
export function mutoolShow(pdf: Uint8Array, path: string): string {
  return run('mutool', ['show', tempFile(pdf, 'shown.pdf'), path]).output;
}

/** `openssl verify -crl_check_all -attime` of a certificate (DER) against `caPem`, with every CRL (DER) given, as at `at`. */
export function opensslVerifyAt(certificate: Uint8Array, crls: Uint8Array[], caPem: string, at: Date): { ok: boolean; output: string } {
  const dir = tempDir();
  const crlPem = Buffer.concat(crls.map((crl) => run('openssl', ['crl', '-inform', 'DER'], crl).stdout));
  const certPem = run('openssl', ['x509', '-inform', 'DER'], certificate).stdout;
  const args = ['verify', '-crl_check_all', '-attime', String(Math.floor(at.getTime() / 1000)), '-CAfile', tempFile(caPem, 'ca.pem', dir), '-CRLfile', tempFile(crlPem, 'crls.pem', dir)];
  const result = run('openssl', [...args, tempFile(certPem, 'cert.pem', dir)]);
  return { ok: result.status === 0 && /: OK\s*$/.test(result.output.trim()), output: result.output };
}
