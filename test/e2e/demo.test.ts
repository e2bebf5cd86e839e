/** `npm run demo` (infra/demo.ts) against the test stack: two signers, both signed, a sealed PDF on disk that pdfsig accepts. */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject, describe, expect, it } from 'vitest';
import { runDemo } from '#infra/demo.ts';
import { call, tokenFor } from '#test/support/api.ts';

describe('npm run demo', () => {
  it('creates, sends, signs as both signers, waits for the seal and downloads the sealed PDF', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'esign-demo-'));
    try {
      const lines: string[] = [];
      const outPath = join(dir, 'demo-sealed.pdf');
      const result = await runDemo({
        apiUrl: inject('apiUrl'), clientId: inject('devClientId'), clientSecret: inject('devClientSecret'),
        pdfPath: new URL('../fixtures/sample.pdf', import.meta.url).pathname, outPath, log: (line) => lines.push(line),
      });
      expect(lines.join('\n')).toMatch(/Created envelope[\s\S]*Ana Silva: signed[\s\S]*Ben Okafor: signed[\s\S]*completed at[\s\S]*Downloaded the sealed PDF/);
      expect(result.signingUrls).toHaveLength(2);
      expect(result.downloadUrl).toMatch(/\/download\//);
      const bytes = readFileSync(outPath);
      expect(bytes.length).toBe(result.sealedBytes);
      const envelope = await call<{ status: string; documentHashFinal: string }>('GET', `/v1/envelopes/${result.envelopeId}`, { token: await tokenFor(inject('devClientId'), inject('devClientSecret')) });
      expect(envelope.body.status).toBe('completed');
      if (existsSync('/usr/bin/pdfsig')) {
        const report = execFileSync('/usr/bin/pdfsig', [outPath], { encoding: 'utf8' });
        expect(report).toMatch(/Signature #1/);
        expect(report).not.toMatch(/Signature is Invalid|Signature validation: Invalid/i);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

