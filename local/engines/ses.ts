import type { Server } from 'node:http';
import { createRequire } from 'node:module';
import { refuseIfEnginesBarred, type RunningEngine } from './types.ts';

export type { RunningEngine } from './types.ts';

export interface SesOptions {
  /** Port to listen on; a free one (picked by the OS) when omitted. */
  readonly port?: number;
}

/** The part of aws-ses-v2-local's stored email the service cares about (attachment bytes left out). */
export interface SesStoredEmail {
  readonly messageId: string;
  readonly from: string;
  readonly replyTo: string[];
  readonly destination: { readonly to: string[]; readonly cc: string[]; readonly bcc: string[] };
  readonly subject: string;
  readonly body: { readonly text?: string; readonly html?: string };
  readonly attachments: SesStoredAttachment[];
  /** Epoch seconds. */
  readonly at: number;
}

export interface SesStoredAttachment {
  readonly filename?: string;
  readonly contentType: string;
  readonly size: number;
}

export interface RunningSes extends RunningEngine {
  /** Every email accepted since this engine started, oldest first. */
  emails(): Promise<SesStoredEmail[]>;
}

/**
 * Starts aws-ses-v2-local in this process on 127.0.0.1. Its mailbox is module-global, so it is
 * cleared on start: two SES engines in one process would share (and clear) the same mailbox.
 */
export async function startSes(opts: SesOptions = {}): Promise<RunningSes> {
  refuseIfEnginesBarred('the SES emulator');
  const server = await loadSesServer()({ host: '127.0.0.1', port: opts.port ?? 0 });
  const endpoint = `http://127.0.0.1:${listeningPort(server, opts.port)}`;
  await clearMailbox(endpoint);
  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= closeServer(server);
    return stopping;
  };
  return { endpoint, stop, emails: () => fetchEmails(endpoint) };
}

/** The engine resolves even when listen() failed (e.g. port in use), so check it really listens. */
function listeningPort(server: Server, requested: number | undefined): number {
  const address = server.address();
  if (typeof address !== 'object' || address === null) {
    server.close();
    throw new Error(`SES engine failed to listen on 127.0.0.1:${requested ?? 0} (port in use?)`);
  }
  return address.port;
}

function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((done, fail) => server.close((err) => {
    if (err) fail(err);
    else done();
  }));
}

async function clearMailbox(endpoint: string): Promise<void> {
  const res = await fetch(`${endpoint}/clear-store`, { method: 'POST' });
  await res.body?.cancel();
  if (!res.ok) throw new Error(`SES engine: POST /clear-store answered ${res.status}`);
}

async function fetchEmails(endpoint: string): Promise<SesStoredEmail[]> {
  const res = await fetch(`${endpoint}/store`);
  if (!res.ok) throw new Error(`SES engine: GET /store answered ${res.status}`);
  const payload: unknown = await res.json();
  const emails = isRecord(payload) ? payload.emails : undefined;
  if (!Array.isArray(emails)) throw new Error('SES engine: GET /store did not return { emails: [...] }');
  return emails.map(toStoredEmail);
}

// ---------- aws-ses-v2-local (CommonJS with `exports.default`) ----------

type SesServerFactory = (config: { host: string; port: number }) => Promise<Server>;

/** Loaded with require: a default import of this CJS module differs between Node, tsx and vitest. */
function loadSesServer(): SesServerFactory {
  const mod = createRequire(import.meta.url)('aws-ses-v2-local') as { default: SesServerFactory };
  return mod.default;
}

// ---------- store payload -> typed subset ----------

type JsonRecord = Record<string, unknown>;

function isRecord(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function asRecord(value: unknown): JsonRecord {
  return isRecord(value) ? value : {};
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function optStr(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function strList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

function toStoredEmail(raw: unknown): SesStoredEmail {
  const email = asRecord(raw);
  const destination = asRecord(email.destination);
  const body = asRecord(email.body);
  const text = optStr(body.text);
  const html = optStr(body.html);
  return {
    messageId: str(email.messageId),
    from: str(email.from),
    replyTo: strList(email.replyTo),
    destination: { to: strList(destination.to), cc: strList(destination.cc), bcc: strList(destination.bcc) },
    subject: str(email.subject),
    body: { ...(text === undefined ? {} : { text }), ...(html === undefined ? {} : { html }) },
    attachments: Array.isArray(email.attachments) ? email.attachments.map(toStoredAttachment) : [],
    at: typeof email.at === 'number' ? email.at : 0,
  };
}

function toStoredAttachment(raw: unknown): SesStoredAttachment {
  const att = asRecord(raw);
  const filename = optStr(att.filename);
  return {
    ...(filename === undefined ? {} : { filename }),
    contentType: str(att.contentType) || 'application/octet-stream',
    size: typeof att.size === 'number' ? att.size : 0,
  };
}
