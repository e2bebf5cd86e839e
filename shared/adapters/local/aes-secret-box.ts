import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { SecretBox } from '#shared/ports/services.ts';

/** AES-256-GCM under a data key from configuration: `v1.<iv>.<tag>.<ciphertext>`, base64url parts. */
export class AesSecretBox implements SecretBox {
  private readonly key: Buffer;

  constructor(dataKey: string) {
    this.key = createHash('sha256').update(dataKey, 'utf8').digest();
  }

  seal(plain: string): Promise<string> {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    const parts = [iv, cipher.getAuthTag(), body].map((b) => b.toString('base64url'));
    return Promise.resolve(['v1', ...parts].join('.'));
  }

  open(sealed: string): Promise<string> {
    const [version, iv, tag, body] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || body === undefined) return Promise.reject(new Error('Unknown sealed secret format'));
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    const plain = Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]);
    return Promise.resolve(plain.toString('utf8'));
  }
}
