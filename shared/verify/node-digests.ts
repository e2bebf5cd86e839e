/**
 * The verifier's range hashing in Node (`npm run verify`): every range of a signed PDF starts at byte 0 and the
 * later ones cover the earlier, so one running SHA-256 is carried through the file and copied where each range's
 * first piece ends; the file is read about once instead of once per signature. WebCrypto, in the browser, cannot.
 */
import { createHash, type Hash } from 'node:crypto';
import type { Range } from './verify-document.ts';

export function sha256RangesOnce(bytes: Uint8Array, ranges: Range[]): Promise<Uint8Array[]> {
  const firstEnd = (i: number) => ranges[i]?.[0]?.[1] ?? 0;
  const order = ranges.map((_, i) => i).sort((i, j) => firstEnd(i) - firstEnd(j));
  const running = createHash('sha256');
  let at = 0;
  const digests: Uint8Array[] = [];
  for (const i of order) {
    const [first, ...rest] = ranges[i] ?? [];
    let hash: Hash;
    if (first?.[0] === 0 && first[1] >= at) {
      running.update(bytes.subarray(at, first[1]));
      at = first[1];
      hash = running.copy();
    } else {
      hash = createHash('sha256');
      if (first) hash.update(bytes.subarray(first[0], first[1]));
    }
    for (const [start, end] of rest) hash.update(bytes.subarray(start, end));
    digests[i] = new Uint8Array(hash.digest());
  }
  return Promise.resolve(digests);
}
