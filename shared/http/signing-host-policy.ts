/**
 * The signing host's Content-Security-Policy: the pages load only their own files. pdf.js compiles WebAssembly
 * (JPEG 2000, JBIG2, colour profiles), hence 'wasm-unsafe-eval'. The local host and CloudFront send this same value.
 */
export const SIGNING_HOST_CSP =
  "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; worker-src 'self' blob:";

/**
 * The API paths the signing host serves on its own origin (CloudFront forwards them to the API; the local signing host
 * too). The pages call the API only there, so the API needs no CORS; the functions behind them trust the viewer
 * address CloudFront passes (shared/http/viewer.ts).
 */
export const SIGNING_HOST_API_PREFIXES = ['/v1/signing/', '/v1/download/'] as const;

export const servedBySigningHost = (path: string) => SIGNING_HOST_API_PREFIXES.some((prefix) => path.startsWith(prefix));
