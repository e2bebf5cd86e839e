import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

const KEY_LENGTH = 32;
const scryptAsync = (secret: string, salt: Buffer) =>
  new Promise<Buffer>((resolve, reject) => {
    scrypt(secret, salt, KEY_LENGTH, { N: 16384, r: 8, p: 1 }, (error, key) => {
      if (error) reject(error);
      else resolve(key);
    });
  });

/** `scrypt$<salt b64url>$<hash b64url>`: a salted, slow hash; the secret itself is never stored. */
export async function hashClientSecret(secret: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scryptAsync(secret, salt);
  return `scrypt$${salt.toString('base64url')}$${hash.toString('base64url')}`;
}

/** Constant-time check; a missing hash still costs one scrypt so unknown client ids take as long as known ones. */
export async function verifyClientSecret(secret: string, stored: string | undefined): Promise<boolean> {
  const [scheme, saltText, hashText] = (stored ?? 'scrypt$AAAAAAAAAAAAAAAAAAAAAA$').split('$');
  const expected = Buffer.from(hashText ?? '', 'base64url');
  const actual = await scryptAsync(secret, Buffer.from(saltText ?? '', 'base64url'));
  const same = expected.length === KEY_LENGTH && timingSafeEqual(actual, expected);
  return scheme === 'scrypt' && stored !== undefined && same;
}

export const newClientId = () => `cli_${randomBytes(12).toString('base64url')}`;
export const newClientSecret = () => randomBytes(32).toString('base64url');
