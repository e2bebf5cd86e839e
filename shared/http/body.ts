import type Busboy from 'busboy';
import { PayloadTooLarge, UnsupportedMediaType, ValidationError } from '#shared/kernel/errors.ts';
import { MAX_DOCUMENTS, MAX_UPLOAD_BYTES } from '#shared/kernel/model.ts';
import { assertWellFormed } from './validation.ts';

export interface UploadedFile {
  field: string;
  /** As the part names it; null when it names none. */
  filename: string | null;
  contentType: string;
  bytes: Uint8Array;
}

/** A request body, parsed according to its Content-Type. */
export type ParsedBody =
  | { kind: 'empty' }
  | { kind: 'json'; value: unknown }
  | { kind: 'form'; fields: Record<string, string> }
  | { kind: 'multipart'; fields: Record<string, string>; files: UploadedFile[] }
  | { kind: 'binary'; contentType: string; bytes: Uint8Array };

export type BodyKind = ParsedBody['kind'];

const MAX_FIELD_BYTES = 1024 * 1024;

export function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

function parseJson(raw: Buffer): ParsedBody {
  try {
    return { kind: 'json', value: JSON.parse(raw.toString('utf8')) as unknown };
  } catch {
    throw ValidationError.at('body', 'is not valid JSON');
  }
}

function formFields(raw: Buffer): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(raw.toString('utf8')));
}

/**
 * Multipart through busboy; a file over the upload limit is a 413, a malformed body a 400. busboy is loaded on the
 * first multipart body: most routes never see one, and none pays for it at its cold start.
 */
export async function parseMultipart(raw: Buffer, contentType: string): Promise<ParsedBody> {
  const { default: busboy } = await import('busboy');
  return new Promise((resolve, reject) => {
    const fields: Record<string, string> = {};
    const files: Promise<UploadedFile>[] = [];
    let failure: Error | undefined;
    let parser: Busboy.Busboy;
    try {
      parser = busboy({ headers: { 'content-type': contentType }, limits: { fileSize: MAX_UPLOAD_BYTES, fieldSize: MAX_FIELD_BYTES, files: MAX_DOCUMENTS + 1, fields: 50 } });
    } catch {
      reject(ValidationError.at('body', 'is not a valid multipart/form-data body (missing boundary?)'));
      return;
    }
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) failure ??= ValidationError.at(name, 'is too long (at most 1 MB)');
      fields[name] = value;
    });
    parser.on('file', (field, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () => { failure ??= new PayloadTooLarge('The uploaded file is larger than 25 MB'); });
      files.push(new Promise((done) => {
        const settle = () => { done({ field, filename: (info.filename ?? '').trim() === '' ? null : (info.filename ?? null), contentType: info.mimeType, bytes: Buffer.concat(chunks) }); };
        stream.on('end', settle);
        // A body cut short inside a file: the part errors (an unhandled 'error' would crash the process)
        stream.on('error', () => {
          failure ??= ValidationError.at('body', 'is not a valid multipart/form-data body (it ends inside a part)');
          settle();
        });
      }));
    });
    parser.on('error', () => { reject(failure ?? ValidationError.at('body', 'is not a valid multipart/form-data body')); });
    parser.on('close', () => {
      if (failure) reject(failure);
      else Promise.all(files).then((all) => { resolve({ kind: 'multipart', fields, files: all }); }, reject);
    });
    parser.end(raw);
  });
}

/** Parses the raw body by media type; `accepted` lists what the route takes (415 otherwise). */
export async function parseBody(raw: Buffer, contentType: string | undefined, accepted: readonly BodyKind[]): Promise<ParsedBody> {
  if (raw.length === 0) return { kind: 'empty' };
  const type = mediaType(contentType);
  const isJson = type === 'application/json' || type.endsWith('+json') || (type === '' && accepted.includes('json'));
  let body: ParsedBody;
  if (isJson) body = parseJson(raw);
  else if (type === 'application/x-www-form-urlencoded') body = { kind: 'form', fields: formFields(raw) };
  else if (type === 'multipart/form-data') body = await parseMultipart(raw, contentType ?? '');
  else body = { kind: 'binary', contentType: type, bytes: raw };
  if (body.kind === 'json') assertWellFormed(body.value, 'body');
  else if (body.kind === 'form') assertWellFormed(body.fields, 'body');
  else if (body.kind === 'multipart') {
    assertWellFormed(body.fields, 'body');
    for (const file of body.files) assertWellFormed(file.filename, `${file.field} (its file name)`);
  }
  if (!accepted.includes(body.kind)) {
    throw new UnsupportedMediaType(`This endpoint does not accept ${type || 'a body without Content-Type'}; send ${describe(accepted)}`);
  }
  return body;
}

function describe(accepted: readonly BodyKind[]): string {
  const names: Record<BodyKind, string> = {
    empty: 'no body', json: 'application/json', form: 'application/x-www-form-urlencoded',
    multipart: 'multipart/form-data', binary: 'application/octet-stream',
  };
  return accepted.map((k) => names[k]).join(' or ');
}
