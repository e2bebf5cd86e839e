/**
 * The signing host's Content-Security-Policy: the pages load only their own files. pdf.js compiles WebAssembly
 * (JPEG 2000, JBIG2, colour profiles), hence 'wasm-unsafe-eval'. The local host and CloudFront send this same value.
 * `documentsOrigin`: the documents bucket's origin, which the page may fetch from: a PDF over 5 MB is answered with a
 * 302 to a presigned URL there (decision 18), and the bucket allows that GET from any origin (DOCUMENTS_CORS).
 */
const pagePolicy = (documentsOrigin: string) =>
  `default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; worker-src 'self' blob:; connect-src 'self' ${documentsOrigin}`;

/**
 * The documents bucket's CORS rule: a page may read what a presigned URL names (the signing page following a 302 for
 * a large PDF) and a browser may POST to a presigned upload. The URL's signature is the credential (no cookies), so
 * the origin is not what grants access.
 */
export const DOCUMENTS_CORS = { allowedMethods: ['GET', 'HEAD', 'POST'], allowedOrigins: ['*'], allowedHeaders: ['*'], maxAgeSeconds: 3600 } as const;

/** No site may frame the signing pages (clickjacking), except embedded links (decision 36). */
export const signingHostCsp = (documentsOrigin: string) => `${pagePolicy(documentsOrigin)}; frame-ancestors 'none'`;

/** An embedded link's page: framed only by the application's `embedOrigins` ('none' when it has none). */
export const embeddedPageCsp = (origins: readonly string[], documentsOrigin: string) =>
  `${pagePolicy(documentsOrigin)}; frame-ancestors ${origins.length > 0 ? origins.join(' ') : "'none'"}`;

/** The embedded signing page: served by a function (its frame policy depends on the application), not from the bucket. */
export const EMBED_PAGE_PREFIX = '/embed/';
/** The editor (embedded authoring) likewise: framed by the application's `embedOrigins`. */
export const AUTHOR_PAGE_PREFIX = '/author/';
/** Pages whose frame policy is the application's, served by a function. */
export const FRAMED_PAGE_PREFIXES = [EMBED_PAGE_PREFIX, AUTHOR_PAGE_PREFIX] as const;

/**
 * The API paths the signing host serves on its own origin (CloudFront forwards them to the API; the local signing host
 * too). The pages call the API only there, so the API needs no CORS; the functions behind them trust the viewer
 * address CloudFront passes (shared/http/viewer.ts).
 */
export const SIGNING_HOST_API_PREFIXES = ['/v1/signing/', '/v1/download/', '/v1/embedded/', '/v1/verify/', '/v1/branding/'] as const;

/**
 * The sender console (web/src/console) lives at /app/ on the signing host and calls the API on the same origin under
 * /v1/ with its user's bearer token (no cookies, so no CSRF and no CORS).
 */
export const CONSOLE_PAGE_PREFIX = '/app/';
export const CONSOLE_API_PREFIX = '/v1/';

/**
 * The console's policy is stricter than the signing pages': no inline styles, no WebAssembly, nothing framed, no
 * forms posting elsewhere. It may call its identity provider (discovery, token endpoint) and the documents bucket
 * (a large PDF's presigned download or upload).
 */
export const consoleCsp = (documentsOrigin: string, identityOrigins: readonly string[]) =>
  ["default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src 'self' data: blob:", `connect-src 'self' ${[documentsOrigin, ...identityOrigins].join(' ')}`,
    "frame-src 'none'", "object-src 'none'", "base-uri 'none'", "form-action 'self'", "frame-ancestors 'none'"].join('; ');

/**
 * The API paths the editor calls on the signing host with its session as a bearer token: opening and renewing the
 * session, and the envelope and template routes that take one (CloudFront forwards `Authorization` on these only).
 */
export const AUTHORING_API_PREFIXES = ['/v1/authoring/', '/v1/envelopes/', '/v1/templates/'] as const;

export const servedBySigningHost = (path: string) =>
  [...FRAMED_PAGE_PREFIXES, ...SIGNING_HOST_API_PREFIXES, ...AUTHORING_API_PREFIXES].some((prefix) => path.startsWith(prefix));
