/**
 * The verifier's range hashing where Node's crypto is not (the /verify page): WebCrypto hashes no stream and cannot
 * save a state, so each signature's range would be hashed whole, its two pieces joined first. hash-wasm's SHA-256 can:
 * every range of a signed PDF starts at byte 0 and the later ones cover the earlier, so one running hash is carried
 * through the file and its state saved where each range's first piece ends; the file is read once, nothing is joined.
 */
import { createSHA256, type IHasher } from 'hash-wasm';

/** A list of [start, end) pieces of the file, hashed as one message. */
export type Range = [number, number][];

let hasher: Promise<IHasher> | null = null;

/** SHA-256 of each range, in one pass over the file; null when WebAssembly cannot run here (a policy forbids it). */
export async function sha256RangesInOnePass(bytes: Uint8Array, ranges: Range[]): Promise<Uint8Array[] | null> {
  let running: IHasher;
  try {
    running = await (hasher ??= createSHA256());
  } catch {
    return null;
  }
  // Synchronous from here: a concurrent call waits for this one, the hasher is never shared mid-message.
  const firstEnd = (i: number) => ranges[i]?.[0]?.[1] ?? 0;
  const order = ranges.map((_, i) => i).sort((i, j) => firstEnd(i) - firstEnd(j));
  running.init();
  let at = 0;
  const digests: Uint8Array[] = [];
  for (const i of order) {
    const pieces = ranges[i] ?? [];
    const [first] = pieces;
    const continues = first?.[0] === 0 && first[1] >= at;
    if (continues) {
      running.update(bytes.subarray(at, first[1]));
      at = first[1];
    }
    const shared = running.save();
    if (!continues) running.init(); // a range that does not start the file: hashed on its own
    for (const [start, end] of continues ? pieces.slice(1) : pieces) running.update(bytes.subarray(start, end));
    digests[i] = running.digest('binary');
    running.load(shared);
  }
  return digests;
}
