import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import busboy from 'busboy';

/**
 * S3's checks of a browser-based POST (a presigned POST policy), in front of s3rver, which stores any POST it gets:
 * the SigV4 signature of the policy, its expiration, and each of its conditions (exact fields, prefixes,
 * `content-length-range`), with S3's answers (403 AccessDenied, 400 EntityTooLarge / EntityTooSmall). A POST that
 * passes is handed to s3rver unchanged. So the local stack refuses what S3 refuses, and the upload path is tested.
 * https://docs.aws.amazon.com/AmazonS3/latest/API/sigv4-HTTPPOSTConstructPolicy.html
 */

type Handler = (req: IncomingMessage, res: ServerResponse) => void;
interface Credentials { accessKeyId: string; secretAccessKey: string }

/** Far above the 25 MB uploads: beyond it the body is not even read (S3 also caps POST bodies, at 5 GB). */
const MAX_POST_BYTES = 64 * 1024 * 1024;

class Refusal extends Error {
  constructor(readonly status: number, readonly code: string, message: string) {
    super(message);
  }
}

/** Wraps s3rver's handler: POSTs of a form to a bucket are checked first, everything else passes straight through. */
export function withPostPolicy(next: Handler, credentials: Credentials, now: () => Date = () => new Date()): Handler {
  return (req, res) => {
    const bucket = /^\/([^/?]+)\/?(?:\?.*)?$/.exec(req.url ?? '')?.[1];
    if (req.method !== 'POST' || !bucket || !(req.headers['content-type'] ?? '').startsWith('multipart/form-data')) {
      next(req, res);
      return;
    }
    readAll(req).then(async (body) => {
      await checkPost(body, req.headers['content-type'] ?? '', decodeURIComponent(bucket), credentials, now());
      next(replay(req, body), res);
    }).catch((error: unknown) => {
      const refusal = error instanceof Refusal ? error : new Refusal(400, 'MalformedPOSTRequest', (error as Error).message);
      res.writeHead(refusal.status, { 'content-type': 'application/xml' });
      res.end(`<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${refusal.code}</Code><Message>${escapeXml(refusal.message)}</Message></Error>`);
    });
  };
}

function readAll(req: IncomingMessage): Promise<Buffer> {
  return new Promise((done, fail) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_POST_BYTES) {
        req.destroy();
        fail(new Refusal(400, 'MaxPostPreDataLengthExceeded', 'Your POST request fields preceeding the upload file was too large.'));
      } else chunks.push(chunk);
    });
    req.on('end', () => { done(Buffer.concat(chunks)); });
    req.on('error', fail);
  });
}

/** The form's fields before the file (names lower-cased, as S3 matches them) and the file's size. */
function parseForm(body: Buffer, contentType: string): Promise<{ fields: Map<string, string>; fileSize: number | null }> {
  return new Promise((done, fail) => {
    const fields = new Map<string, string>();
    let fileSize: number | null = null;
    const parser = busboy({ headers: { 'content-type': contentType } });
    parser.on('field', (name, value) => { if (fileSize === null) fields.set(name.toLowerCase(), value); });
    parser.on('file', (name, stream) => {
      if (name !== 'file' || fileSize !== null) {
        stream.resume();
        return;
      }
      fileSize = 0;
      stream.on('data', (chunk: Buffer) => { fileSize = (fileSize ?? 0) + chunk.length; });
    });
    parser.on('error', fail);
    parser.on('close', () => { done({ fields, fileSize }); });
    parser.end(body);
  });
}

const denied = (message: string) => new Refusal(403, 'AccessDenied', message);

async function checkPost(body: Buffer, contentType: string, bucket: string, credentials: Credentials, now: Date): Promise<void> {
  const { fields, fileSize } = await parseForm(body, contentType);
  if (fileSize === null) throw new Refusal(400, 'InvalidArgument', 'POST requires exactly one file upload per request.');
  const policy = fields.get('policy');
  if (!policy) return; // an anonymous POST: s3rver, like a public bucket, decides
  const credential = fields.get('x-amz-credential') ?? '';
  const [accessKeyId, date, region, service] = credential.split('/');
  if (fields.get('x-amz-algorithm') !== 'AWS4-HMAC-SHA256' || !date || !region || service !== 's3') throw denied('Unsupported or missing SigV4 fields');
  if (accessKeyId !== credentials.accessKeyId) throw new Refusal(403, 'InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist in our records.');
  const key = [date, region, 's3', 'aws4_request'].reduce<Buffer>((k, part) => createHmac('sha256', k).update(part).digest(), Buffer.from(`AWS4${credentials.secretAccessKey}`));
  const expected = createHmac('sha256', key).update(policy).digest();
  const given = Buffer.from(fields.get('x-amz-signature') ?? '', 'hex');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new Refusal(403, 'SignatureDoesNotMatch', 'The request signature we calculated does not match the signature you provided.');
  const document = JSON.parse(Buffer.from(policy, 'base64').toString('utf8')) as { expiration?: string; conditions?: unknown[] };
  if (!document.expiration || Date.parse(document.expiration) <= now.getTime()) throw denied('Invalid according to Policy: Policy expired.');
  const valueOf = (name: string) => (name === 'bucket' ? bucket : fields.get(name));
  const covered = new Set(['policy', 'x-amz-signature', 'file', 'bucket']);
  for (const condition of document.conditions ?? []) {
    if (Array.isArray(condition) && condition[0] === 'content-length-range') {
      const [, min, max] = condition as [string, number, number];
      if (fileSize > max) throw new Refusal(400, 'EntityTooLarge', 'Your proposed upload exceeds the maximum allowed size');
      if (fileSize < min) throw new Refusal(400, 'EntityTooSmall', 'Your proposed upload is smaller than the minimum allowed size');
      continue;
    }
    const [op, rawName, expectedValue] = Array.isArray(condition)
      ? (condition as [string, string, string])
      : ['eq', `$${Object.keys(condition as object)[0] ?? ''}`, Object.values(condition as object)[0] as string];
    const name = rawName.replace(/^\$/, '').toLowerCase();
    covered.add(name);
    const actual = valueOf(name);
    const holds = op === 'eq' ? actual === expectedValue : op === 'starts-with' ? actual?.startsWith(expectedValue) === true : false;
    if (!holds) throw denied(`Invalid according to Policy: Policy Condition failed: ["${op}", "$${name}", "${expectedValue}"]`);
  }
  const extra = [...fields.keys()].filter((name) => !covered.has(name) && !name.startsWith('x-ignore-'));
  if (extra.length > 0) throw denied(`Invalid according to Policy: Extra input fields: ${extra.join(', ')}`);
}

/** The buffered request, as a stream s3rver's Koa app reads like the original. */
function replay(req: IncomingMessage, body: Buffer): IncomingMessage {
  const stream = Readable.from([body]);
  return Object.assign(stream, {
    headers: req.headers, rawHeaders: req.rawHeaders, method: req.method, url: req.url, socket: req.socket,
    httpVersion: req.httpVersion, httpVersionMajor: req.httpVersionMajor, httpVersionMinor: req.httpVersionMinor,
  }) as unknown as IncomingMessage;
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&#${String(c.charCodeAt(0))};`);
}
