/**
 * Stands in for fontkit's brotli decoder in the function bundles (infra/constructs/bundling.ts). fontkit only calls
 * it to read a WOFF2 font, and the seal reads TrueType files alone (catalog.ts), so the decoder and its 750 KB
 * dictionary (about 12 ms to load) would be carried and loaded for nothing.
 */
export default function decompress(): never {
  throw new Error('WOFF2 fonts cannot be read here: the seal draws with the TrueType files of shared/sealing/text/catalog.ts');
}
