/**
 * The signing host's Content-Security-Policy: the pages load only their own files. pdf.js compiles WebAssembly
 * (JPEG 2000, JBIG2, colour profiles), hence 'wasm-unsafe-eval'. The local host and CloudFront send this same value.
 */
export const SIGNING_HOST_CSP =
  "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; worker-src 'self' blob:";
