/**
 * The signing host's Content-Security-Policy: the pages load only their own files. pdf.js compiles WebAssembly
 * (JPEG 2000, JBIG2, colour profiles), hence 'wasm-unsafe-eval'. The local host and CloudFront send this same value.
 */
const PAGE_POLICY =
  "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; worker-src 'self' blob:";

/** No site may frame the signing pages (clickjacking), except embedded links (ADDITIONS A6). */
export const SIGNING_HOST_CSP = `${PAGE_POLICY}; frame-ancestors 'none'`;

/** An embedded link's page: framed only by the application's `embedOrigins` ('none' when it has none). */
export const embeddedPageCsp = (origins: readonly string[]) =>
  `${PAGE_POLICY}; frame-ancestors ${origins.length > 0 ? origins.join(' ') : "'none'"}`;

/** The embedded signing page: served by a function (its frame policy depends on the application), not from the bucket. */
export const EMBED_PAGE_PREFIX = '/embed/';

/**
 * The API paths the signing host serves on its own origin (CloudFront forwards them to the API; the local signing host
 * too). The pages call the API only there, so the API needs no CORS; the functions behind them trust the viewer
 * address CloudFront passes (shared/http/viewer.ts).
 */
export const SIGNING_HOST_API_PREFIXES = ['/v1/signing/', '/v1/download/', '/v1/embedded/'] as const;

export const servedBySigningHost = (path: string) => path.startsWith(EMBED_PAGE_PREFIX) || SIGNING_HOST_API_PREFIXES.some((prefix) => path.startsWith(prefix));
