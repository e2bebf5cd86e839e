// Verifies a webhook delivery: Node 18+, no dependencies.
// Usage: node verify.mjs <raw-body-file> <X-Service-Signature-V2> <X-Service-Signature> <secret> [<secret>...]
import { createHmac, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const TOLERANCE_SECONDS = 300;

function equalHex(a, b) {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}

/** X-Service-Signature-V2: t=<unix seconds>,v1=<hex>[,v1=<hex>]. True when a v1 matches and t is fresh. */
export function verifyV2(rawBody, header, secret, nowSeconds = Math.floor(Date.now() / 1000)) {
  if (typeof header !== 'string') return false;
  const parts = header.split(',').map((part) => part.trim().split('='));
  const stamps = parts.filter(([name]) => name === 't').map(([, value]) => value);
  const signatures = parts.filter(([name]) => name === 'v1').map(([, value]) => value);
  if (stamps.length !== 1 || !/^\d+$/.test(stamps[0]) || signatures.length === 0) return false;
  const expected = createHmac('sha256', secret).update(`${stamps[0]}.`).update(rawBody).digest('hex');
  if (!signatures.some((signature) => equalHex(signature, expected))) return false;
  return Math.abs(nowSeconds - Number(stamps[0])) <= TOLERANCE_SECONDS;
}

/** X-Service-Signature: sha256=<hex HMAC-SHA256 of the raw body>; carries no time, so a replay passes it. */
export function verifyBodyOnly(rawBody, header, secret) {
  if (typeof header !== 'string') return false;
  return equalHex(header.trim(), `sha256=${createHmac('sha256', secret).update(rawBody).digest('hex')}`);
}

/** Accept when any current secret verifies: during a rotation, configure both the old and the new one. */
export function verifyWebhook(rawBody, headers, secrets, nowSeconds) {
  return secrets.some((secret) => verifyV2(rawBody, headers['x-service-signature-v2'], secret, nowSeconds));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [bodyFile, v2, bodyOnly, ...secrets] = process.argv.slice(2);
  const rawBody = readFileSync(bodyFile); // the exact bytes received: never a re-serialised JSON
  const now = process.env.NOW_SECONDS ? Number(process.env.NOW_SECONDS) : undefined;
  const v2ok = verifyWebhook(rawBody, { 'x-service-signature-v2': v2 }, secrets, now);
  const bodyOk = secrets.some((secret) => verifyBodyOnly(rawBody, bodyOnly, secret));
  console.log(JSON.stringify({ v2: v2ok, bodyOnly: bodyOk }));
  process.exit(v2ok ? 0 : 1);
}
