/**
 * An integration in one file, on plain node:http: subscribes a webhook to this server, creates an envelope with a
 * PDF, sends it for signature, then receives the envelope's events and trusts only those whose signature verifies.
 *
 *   API_URL=http://127.0.0.1:3000 CLIENT_ID=... CLIENT_SECRET=... SIGNER_EMAIL=you@example.com PDF_PATH=./contract.pdf \
 *     npm start
 *
 * Settings (environment): API_URL, CLIENT_ID, CLIENT_SECRET, PDF_PATH, SIGNER_NAME, SIGNER_EMAIL, TENANT_ID,
 * PORT (0 picks a free one), PUBLIC_URL (where the service reaches this server; default http://127.0.0.1:PORT, which
 * only a local service may call: a deployed one delivers to public HTTPS addresses only), WEBHOOK_SECRET.
 * Every line it prints is one JSON object, so a script can follow it.
 */
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkWebhook, clientCredentials, createEsignClient, uploadDocument, type EsignClient } from '@esign/client';

const env = (name: string, fallback?: string): string => {
  const value = process.env[name] ?? fallback;
  if (value === undefined || value === '') throw new Error(`Set ${name}`);
  return value;
};

const config = {
  apiUrl: env('API_URL', 'http://127.0.0.1:3000'),
  clientId: env('CLIENT_ID'),
  clientSecret: env('CLIENT_SECRET'),
  pdfPath: env('PDF_PATH'),
  signerName: env('SIGNER_NAME', 'Ana Silva'),
  signerEmail: env('SIGNER_EMAIL'),
  tenantId: env('TENANT_ID', 'example'),
  port: Number(env('PORT', '4400')),
  // The secret the deliveries are signed with: generated per run unless given (at least 16 characters).
  webhookSecret: env('WEBHOOK_SECRET', `whsec_${randomBytes(24).toString('hex')}`),
};

const log = (entry: Record<string, unknown>) => { console.log(JSON.stringify(entry)); };

interface ReceivedEvent { id: string; event: string; envelopeId: string; scheme: 'v2' | 'body'; receivedAt: string }
const received: ReceivedEvent[] = [];
const seen = new Set<string>();

/** The raw bytes of the request: the signature covers exactly these, so never verify a re-serialised body. */
async function rawBody(req: IncomingMessage, limit = 1024 * 1024): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new Error('body too large');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

async function onWebhook(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const body = await rawBody(req);
  const verdict = checkWebhook(body, req.headers, config.webhookSecret, { toleranceSeconds: 300 });
  if (!verdict.valid) {
    log({ webhook: 'refused', reason: verdict.reason });
    res.writeHead(401, { 'content-type': 'text/plain' }).end('signature does not verify');
    return;
  }
  const event = JSON.parse(body.toString('utf8')) as { id: string; event: string; envelopeId: string };
  // Deliveries are retried until answered with a 2xx, so the same event can come twice: `id` tells.
  if (!seen.has(event.id)) {
    seen.add(event.id);
    received.push({ id: event.id, event: event.event, envelopeId: event.envelopeId, scheme: verdict.scheme, receivedAt: new Date().toISOString() });
    log({ webhook: 'verified', event: event.event, envelopeId: event.envelopeId, scheme: verdict.scheme });
  }
  res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
}

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${String(c.charCodeAt(0))};`);

function onPage(res: ServerResponse): void {
  const rows = received.map((e) => `<li><code>${escape(e.event)}</code> for ${escape(e.envelopeId)} at ${escape(e.receivedAt)}</li>`).join('');
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
    .end(`<!doctype html><meta charset="utf-8"><title>Webhooks received</title><h1>Verified webhooks</h1><ul>${rows || '<li>None yet</li>'}</ul>`);
}

const server = createServer((req, res) => {
  const path = new URL(req.url ?? '/', 'http://localhost').pathname;
  if (req.method === 'POST' && path === '/webhooks') {
    onWebhook(req, res).catch((error: unknown) => {
      log({ webhook: 'error', message: String(error) });
      if (!res.headersSent) res.writeHead(400, { 'content-type': 'text/plain' }).end('bad request');
    });
  } else if (req.method === 'GET' && path === '/events') {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(received));
  } else if (req.method === 'GET' && path === '/') {
    onPage(res);
  } else {
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  }
});

/** Subscribes this server, then creates, fills and sends one envelope; answers its id and the signer's link. */
async function sendForSignature(api: EsignClient, publicUrl: string): Promise<{ webhookId: string; envelopeId: string; signingUrl: string | null }> {
  const hook = await api.POST('/v1/webhooks', {
    body: { url: `${publicUrl}/webhooks`, events: ['envelope.sent', 'signer.viewed', 'signer.signed', 'envelope.completed', 'envelope.declined'], secret: config.webhookSecret },
  });
  if (!hook.data) throw new Error(`Subscribing the webhook: ${hook.error.message}`);

  const created = await api.POST('/v1/envelopes', {
    body: { tenantId: config.tenantId, subject: 'Please sign: example agreement', signers: [{ name: config.signerName, email: config.signerEmail }] },
    headers: { 'Idempotency-Key': randomBytes(16).toString('hex') },
  });
  if (!created.data) throw new Error(`Creating the envelope: ${created.error.message}`);
  const envelopeId = created.data.id;
  // A stream straight from disk; uploadDocument switches to a presigned upload for files over 4 MB.
  await uploadDocument(api, envelopeId, createReadStream(config.pdfPath), { filename: 'agreement.pdf' });
  const signerId = created.data.signers[0]?.id ?? '';
  const field = await api.POST('/v1/envelopes/{id}/fields', {
    params: { path: { id: envelopeId } }, body: { signerId, type: 'signature', page: 1, x: 72, y: 72, w: 180, h: 40 },
  });
  if (!field.data) throw new Error(`Placing the signature field: ${field.error.message}`);
  const sent = await api.POST('/v1/envelopes/{id}/send', { params: { path: { id: envelopeId } }, body: { message: 'Sent from the example integration' } });
  if (!sent.data) throw new Error(`Sending: ${sent.error.message}`);
  return { webhookId: hook.data.id, envelopeId, signingUrl: sent.data.signers[0]?.signingUrl ?? null };
}

async function main(): Promise<void> {
  await new Promise<void>((resolve) => server.listen(config.port, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const publicUrl = (process.env.PUBLIC_URL ?? `http://127.0.0.1:${String(port)}`).replace(/\/$/, '');
  const api = createEsignClient({ baseUrl: config.apiUrl });
  api.use(clientCredentials({ baseUrl: config.apiUrl, clientId: config.clientId, clientSecret: config.clientSecret }));

  const { webhookId, envelopeId, signingUrl } = await sendForSignature(api, publicUrl);
  log({ ready: true, receiver: `http://127.0.0.1:${String(port)}`, envelopeId, signingUrl });

  const stop = () => {
    // Unsubscribes, so that a stopped example leaves no webhook behind that fails every delivery.
    void api.DELETE('/v1/webhooks/{id}', { params: { path: { id: webhookId } } }).finally(() => { server.close(); process.exit(0); });
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  log({ error: error instanceof Error ? error.message : String(error) });
  process.exit(1);
});
