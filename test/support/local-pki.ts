import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HttpRevocationSource } from '#shared/adapters/http/revocation-source.ts';
import { HttpTimestampAuthority } from '#shared/adapters/http/timestamp-authority.ts';
import { KeyFileSigner } from '#shared/adapters/local/key-file-signer.ts';
import type { SealKeySpec } from '#shared/adapters/seal-key-spec.ts';
import { startLocalPki, type RunningPki } from '#local/engines/local-ca.ts';
import type { PadesLevel, SealInput } from '#shared/sealing/seal.ts';

export interface TestPki {
  pki: RunningPki;
  signer: KeyFileSigner;
  /** A seal input at `level` with the local TSA and CRL server as its evidence. */
  input: (level: PadesLevel, overrides?: Partial<SealInput>) => SealInput;
}

/** The local CA engine in a temporary directory, with a seal key it certified; `keySpec`: of every key (default: the local default). */
export async function startTestPki(keySpec?: SealKeySpec, options: { tsaValidDays?: number } = {}): Promise<TestPki> {
  const dir = mkdtempSync(join(tmpdir(), 'esign-pki-'));
  const spec = keySpec ? { keySpec } : {};
  const pki = await startLocalPki({ dir: join(dir, 'pki'), ...spec, ...options });
  const signer = await KeyFileSigner.open(join(dir, 'signing'), { certify: (key, chain) => pki.sealChain(key, chain), ...spec });
  const input = (level: PadesLevel, overrides: Partial<SealInput> = {}): SealInput => ({
    items: [{ page: 1, rect: { x: 60, y: 700, width: 260, height: 40 }, rotate: 0, value: { kind: 'typed', text: 'Łukasz Nowak', fontLabel: 'Caveat' } }],
    certificate: {
      envelopeId: '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b', subject: 'Supply contract', originalSha256: 'ab'.repeat(32), originalPageCount: 1,
      createdAt: '2026-03-01T10:00:00.000Z', completedAt: '2026-03-01T12:00:00.123Z', chainHead: { seq: 9, hash: 'cd'.repeat(32) },
      documents: [{ name: 'Supply contract.pdf', sha256: 'ab'.repeat(32), pageCount: 1 }], signers: [], events: [],
    },
    signer,
    signingTime: new Date('2026-03-01T12:00:00Z'),
    evidence: { level, timestamps: new HttpTimestampAuthority(pki.tsaUrl), revocation: new HttpRevocationSource() },
    ...overrides,
  });
  return { pki, signer, input };
}
