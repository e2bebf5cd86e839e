import { X509Certificate, createHash } from 'node:crypto';
import type { DocumentSigner, Logger } from '#shared/ports/services.ts';

/** The seal certificate names another key than the one that signs: every seal would fail validation. */
/** The log line of a mismatch: the deployed alarm's metric filter matches exactly this text. */
export const SEAL_KEY_MISMATCH_LOG = 'seal certificate does not match the signing key';

export class SealKeyMismatch extends Error {
  constructor() {
    super('The seal certificate does not match the signing key: import the certificate issued for this key');
    this.name = 'SealKeyMismatch';
  }
}

interface Comparison {
  matches: boolean;
  certificateKey: string;
  signingKey: string;
  subject: string;
}

const fingerprint = (spki: Uint8Array) => createHash('sha256').update(spki).digest('hex');

/** Compared once per signer (a container's) and chain: an imported chain is read while the container runs. */
const compared = new WeakMap<DocumentSigner, { certificate: Uint8Array; comparison: Promise<Comparison | null> }>();

async function compare(first: Uint8Array, signingPublicKey: () => Promise<Uint8Array>): Promise<Comparison> {
  const signing = await signingPublicKey();
  const certificate = new X509Certificate(first);
  const certified = certificate.publicKey.export({ type: 'spki', format: 'der' });
  return { matches: certified.equals(signing), certificateKey: fingerprint(certified), signingKey: fingerprint(signing), subject: certificate.subject };
}

/**
 * Before anything is sealed: the chain's first certificate must certify the key that signs (an imported chain can
 * name another key). A mismatch is logged for the alarm and fails the seal, every time it is tried.
 */
export async function assertSealKeyMatches(deps: { documentSigner: DocumentSigner; logger: Logger }): Promise<void> {
  const signer = deps.documentSigner;
  const [first] = await signer.certificateChain();
  if (!first) throw new Error('The seal certificate chain holds no certificate');
  let comparison = compared.get(signer);
  if (!comparison || !Buffer.from(comparison.certificate).equals(first)) {
    const signingPublicKey = signer.signingPublicKey?.bind(signer);
    const pending = signingPublicKey ? compare(first, signingPublicKey).catch((error: unknown) => {
      // A role without the right to read the public key seals unchecked rather than not at all.
      if ((error as { name?: string }).name !== 'AccessDeniedException') throw error;
      deps.logger.warn('seal key not checked against its certificate: the public key is not readable', { error: (error as Error).message });
      return null;
    }) : Promise.resolve(null);
    const entry = { certificate: first, comparison: pending };
    compared.set(signer, entry);
    pending.catch(() => { if (compared.get(signer) === entry) compared.delete(signer); }); // a failed read is asked again at the next seal
    comparison = entry;
  }
  const result = await comparison.comparison;
  if (!result || result.matches) return;
  deps.logger.error(SEAL_KEY_MISMATCH_LOG, {
    alarm: true, certificateSubject: result.subject, certificateKeySha256: result.certificateKey, signingKeySha256: result.signingKey,
  });
  throw new SealKeyMismatch();
}
