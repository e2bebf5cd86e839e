/**
 * `npm run demo`: one envelope from start to sealed PDF against the running local service (`npm start`), through the
 * typed client: create it from test/fixtures/sample.pdf with two signers, send it, sign as both through the signer
 * API (one-time codes read from the local outbox: an email for the first, an SMS for the second), wait for the seal,
 * and download the sealed PDF. API_URL (default http://127.0.0.1:3000), LOCAL_CLIENT_ID / LOCAL_CLIENT_SECRET
 * (default local-client / local-secret) and DEMO_OUT (default ./demo-sealed.pdf) configure it.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { clientCredentials, createEsignClient, type EsignClient, type Schemas } from '../client/index.ts';
import { isMainModule } from './main-module.ts';

export interface DemoOptions {
  apiUrl: string;
  clientId: string;
  clientSecret: string;
  pdfPath: string;
  outPath: string;
  log: (line: string) => void;
}

export interface DemoResult {
  envelopeId: string;
  sealedPath: string;
  sealedBytes: number;
  signingUrls: string[];
  downloadUrl: string | null;
}

interface OutboxMessage { channel: 'email' | 'sms'; to: string; subject: string | null; text: string }

interface DemoSigner { name: string; email: string; phone?: string; routingOrder: number; authMethod: 'email_otp' | 'sms_otp'; otpTo: string }
const ANA: DemoSigner = { name: 'Ana Silva', email: 'ana@example.com', routingOrder: 1, authMethod: 'email_otp', otpTo: 'ana@example.com' };
const BEN: DemoSigner = { name: 'Ben Okafor', email: 'ben@example.com', phone: '+14155550100', routingOrder: 2, authMethod: 'sms_otp', otpTo: '+14155550100' };
const SIGNERS = [ANA, BEN];

/** The local service's dev endpoints (not part of the API, so not in the typed client). */
function local(apiUrl: string) {
  return {
    outbox: async (to: string): Promise<OutboxMessage[]> => (await fetch(`${apiUrl}/_local/outbox?to=${encodeURIComponent(to)}`)).json() as Promise<OutboxMessage[]>,
    /** Runs due jobs and waits until the background queues are quiet: the invitation, the seal. */
    settle: async () => {
      const response = await fetch(`${apiUrl}/_local/clock`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"advanceSeconds":0}' });
      if (!response.ok) throw new Error(`POST /_local/clock answered ${String(response.status)}: is this the local service?`);
    },
  };
}

function must<T>(result: { data?: T; error?: unknown; response: Response }, what: string): T {
  if (result.data === undefined) throw new Error(`${what}: ${String(result.response.status)} ${JSON.stringify(result.error)}`);
  return result.data;
}

/** Waits for `found` to return a value, settling the background work between tries (at most about 30 s). */
async function eventually<T>(settle: () => Promise<void>, found: () => Promise<T | undefined>, what: string): Promise<T> {
  for (let attempt = 0; attempt < 60; attempt++) {
    await settle();
    const value = await found();
    if (value !== undefined) return value;
    await new Promise((done) => setTimeout(done, 500));
  }
  throw new Error(`gave up waiting for ${what}`);
}

async function signAs(api: EsignClient, dev: ReturnType<typeof local>, token: string, signer: DemoSigner, log: DemoOptions['log']): Promise<void> {
  const path = { token };
  const context = must(await api.GET('/v1/signing/{token}', { params: { path } }), 'signing context');
  log(`  ${signer.name}: opened the link (${String(context.fields.length)} field(s) to fill)`);
  const sentBefore = (await dev.outbox(signer.otpTo)).length;
  must(await api.POST('/v1/signing/{token}/otp/request', { params: { path } }), 'one-time code request');
  const code = await eventually(dev.settle, async () => {
    const messages = (await dev.outbox(signer.otpTo)).slice(sentBefore);
    return messages.map((m) => /\b(\d{6})\b/.exec(m.channel === 'sms' ? m.text : (m.subject ?? ''))?.[1]).find(Boolean);
  }, `the one-time code for ${signer.name}`);
  log(`  ${signer.name}: one-time code ${code} read from the outbox (${signer.authMethod === 'sms_otp' ? 'SMS' : 'email'})`);
  must(await api.POST('/v1/signing/{token}/otp/verify', { params: { path }, body: { code } }), 'one-time code');
  must(await api.POST('/v1/signing/{token}/consent', { params: { path } }), 'consent');
  const fields = context.fields.filter((field) => field.type !== 'date').map((field) => ({ fieldId: field.id, textValue: field.type === 'checkbox' ? 'true' : signer.name }));
  const signed = must(await api.POST('/v1/signing/{token}/sign', { params: { path }, body: { fields, fontLabel: 'Dancing Script' } }), 'sign');
  log(`  ${signer.name}: signed (envelope ${signed.envelopeStatus})`);
}

const linkIn = (messages: OutboxMessage[], kind: 'sign' | 'download') =>
  messages.map((m) => new RegExp(`(\\S+/${kind}/[\\w.-]+)`).exec(m.text)?.[1]).filter((url): url is string => Boolean(url)).at(-1);

export async function runDemo(options: DemoOptions): Promise<DemoResult> {
  const { log } = options;
  const api = createEsignClient({ baseUrl: options.apiUrl });
  api.use(clientCredentials({ baseUrl: options.apiUrl, clientId: options.clientId, clientSecret: options.clientSecret }));
  const dev = local(options.apiUrl);

  const form = new FormData();
  form.append('file', new Blob([await readFile(options.pdfPath)], { type: 'application/pdf' }), 'sample.pdf');
  form.append('data', JSON.stringify({
    tenantId: 'demo', subject: 'Demo: sample agreement',
    signers: SIGNERS.map(({ otpTo: _otpTo, ...signer }) => signer),
    fields: SIGNERS.map((_signer, i) => ({ signerIndex: i, type: 'signature', page: 2, x: 72 + i * 240, y: 96, w: 200, h: 48 })),
  }));
  const created = must(await api.POST('/v1/envelopes', { body: form as never, bodySerializer: (body) => body as unknown as FormData }), 'create envelope');
  const id = created.id;
  log(`1. Created envelope ${id} from ${options.pdfPath} with ${String(created.signers.length)} signers`);

  const sent = must(await api.POST('/v1/envelopes/{id}/send', { params: { path: { id } }, body: { message: 'Please sign this demo agreement' } }), 'send');
  const first = sent.signers.find((s) => s.signingUrl)?.signingUrl;
  if (!first) throw new Error('the send answer carries no signing link');
  log(`2. Sent: ${ANA.name} is invited (routing order 1); ${BEN.name} follows (routing order 2)`);

  const signingUrls = [first];
  const tokenOf = (url: string) => url.split('/sign/')[1] ?? '';
  log('3. Signing through the signer API');
  await signAs(api, dev, tokenOf(first), ANA, log);
  const second = await eventually(dev.settle, async () => linkIn(await dev.outbox(BEN.email), 'sign'), 'the second signer\'s invitation');
  signingUrls.push(second);
  log(`  ${BEN.name}: invited by email once the first group signed`);
  await signAs(api, dev, tokenOf(second), BEN, log);

  log('4. Waiting for the seal (PAdES signature, audit certificate) ...');
  const completed = await eventually(dev.settle, async () => {
    const envelope: Schemas['Envelope'] = must(await api.GET('/v1/envelopes/{id}', { params: { path: { id } } }), 'read envelope');
    return envelope.status === 'completed' ? envelope : undefined;
  }, 'completion');
  log(`  completed at ${completed.completedAt ?? '?'}; final SHA-256 ${completed.documentHashFinal ?? '?'}`);

  const sealed = await api.GET('/v1/envelopes/{id}/document', { params: { path: { id }, query: { kind: 'sealed' } }, parseAs: 'arrayBuffer' });
  const bytes = Buffer.from(must(sealed, 'download the sealed PDF'));
  await writeFile(options.outPath, bytes);
  log(`5. Downloaded the sealed PDF to ${options.outPath} (${String(bytes.length)} bytes)`);
  const downloadUrl = linkIn(await dev.outbox(ANA.email), 'download') ?? null;
  return { envelopeId: id, sealedPath: options.outPath, sealedBytes: bytes.length, signingUrls, downloadUrl };
}

async function main(): Promise<void> {
  const apiUrl = (process.env.API_URL ?? 'http://127.0.0.1:3000').replace(/\/+$/, '');
  const outPath = resolve(process.env.DEMO_OUT ?? 'demo-sealed.pdf');
  const log = (line: string) => { console.log(line); };
  const ready = await fetch(`${apiUrl}/healthz`).then((r) => r.ok, () => false);
  if (!ready) throw new Error(`No local service answers at ${apiUrl}: start it with \`npm start\` (or set API_URL).`);
  const result = await runDemo({
    apiUrl, outPath, log, pdfPath: resolve(import.meta.dirname, '../test/fixtures/sample.pdf'),
    clientId: process.env.LOCAL_CLIENT_ID ?? 'local-client', clientSecret: process.env.LOCAL_CLIENT_SECRET ?? 'local-secret',
  });
  // Under SIGNER=csc the seal's root is the local CSC provider's (the timestamps stay under the local CA's).
  const cscRoot = await fetch(`${apiUrl}/_local/csc/root.pem`).then((r) => r.ok, () => false);
  log([
    '',
    'Where to look:',
    `  Mailbox (every email and SMS):  ${apiUrl}/_local/mailbox`,
    `  Signing pages (used links):     ${result.signingUrls.join('  ')}`,
    `  Download page:                  ${result.downloadUrl ?? '(see the completion email in the mailbox)'}`,
    `  The envelope and audit log:     ${apiUrl}/docs/ (GET /v1/envelopes/{id}, id ${result.envelopeId})`,
    `  Check the seal:                 pdfsig ${result.sealedPath}`,
    `                                  (trust root: curl -s ${apiUrl}/_local/${cscRoot ? 'csc' : 'pki'}/root.pem > root.pem)`,
  ].join('\n'));
}

if (isMainModule(import.meta.url)) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
