import * as crypto from 'node:crypto';
import { createWriteStream, readdirSync, statSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createRequire, Module } from 'node:module';
import { dirname, posix, resolve } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { S3ClientConfig } from '@aws-sdk/client-s3';
import { withPostPolicy } from './s3-post-policy.ts';
import { refuseIfEnginesBarred, type RunningEngine } from './types.ts';

export type { RunningEngine } from './types.ts';

export interface S3Options {
  /** Buckets and objects are stored as plain files under this directory. */
  readonly dataDir: string;
  /** Port to listen on; a free one (picked by the OS) when omitted. */
  readonly port?: number;
}

/** The credentials s3rver expects (it checks signatures against this fixed key pair). */
export const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const;

/**
 * S3 client settings for the local engine. Every S3 client pointed at s3rver must use these:
 * - path-style URLs (no `bucket.127.0.0.1` virtual hosts);
 * - checksums only when an operation requires them: with the SDK default (WHEN_SUPPORTED), uploads
 *   are sent as aws-chunked bodies with trailing checksums, which s3rver stores verbatim (corrupted).
 */
export function localS3ClientConfig(endpoint: string) {
  return {
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { ...S3RVER_CREDENTIALS },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  } satisfies S3ClientConfig;
}

/** Starts s3rver in this process on 127.0.0.1. */
export async function startS3(opts: S3Options): Promise<RunningEngine> {
  refuseIfEnginesBarred('s3rver');
  const directory = resolve(opts.dataDir);
  await mkdir(directory, { recursive: true });
  const app = new (loadS3rver())({
    directory,
    silent: true,
    // Bucket names are only ever taken from the path, never from a `bucket.host` virtual host.
    vhostBuckets: false,
  });
  // Own http.Server instead of s3rver.run(): run() leaves listen errors (EADDRINUSE) as an unhandled 'error' event.
  // s3rver stores any browser POST; S3's checks of the presigned policy run in front of it (s3-post-policy.ts).
  const server = createServer(withPostPolicy(app.callback(), S3RVER_CREDENTIALS));
  const port = await listen(server, opts.port ?? 0);
  const endpoint = `http://127.0.0.1:${port}`;
  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= closeServer(server);
    return stopping;
  };
  return { endpoint, stop };
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((done, fail) => {
    const onError = (err: Error): void => { fail(new Error(`S3 engine failed to listen on 127.0.0.1:${port}: ${err.message}`)); };
    server.once('error', onError);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', onError);
      const address = server.address();
      if (typeof address === 'object' && address !== null) done(address.port);
      else fail(new Error('S3 engine: could not read the listening port'));
    });
  });
}

function closeServer(server: Server): Promise<void> {
  // Drop SDK keep-alive sockets, otherwise close() waits for them to time out.
  server.closeAllConnections();
  return new Promise((done, fail) => server.close((err) => {
    if (err) fail(err);
    else done();
  }));
}

// ---------- s3rver (CommonJS, no type declarations) ----------

interface S3rverOptions {
  directory: string;
  silent: boolean;
  vhostBuckets: boolean;
}

/** s3rver is a Koa application; callback() is its request handler. */
interface S3rverApp {
  callback(): (req: IncomingMessage, res: ServerResponse) => void;
}

type S3rverConstructor = new (options: S3rverOptions) => S3rverApp;

interface S3rverObject { bucket: string; key: string; content: Buffer | Readable; metadata: Record<string, string> }
interface FilesystemStore {
  getResourcePath(bucket: string, key: string, resource: string): string;
  putMetadata(bucket: string, key: string, metadata: Record<string, string>, md5: string): Promise<void>;
  putObject(object: S3rverObject): Promise<{ size: number; md5: string }>;
  getMetadata(bucket: string, key: string): Promise<unknown>;
}

let patched = false;

function loadS3rver(): S3rverConstructor {
  const require = createRequire(import.meta.url);
  if (!patched) {
    // s3rver 3.7 answers a PUT or POST once the body is read, before the file is written (it waits for its hashing
    // stream, not the file stream): a GET right after can read a short file, which a 24 MB upload shows. Stored here
    // the same way, answered once the file is complete.
    // Listing walks the bucket's folders with readdir then stat: an object deleted in between (a sweep running beside a
    // lifecycle pass) failed the whole ListObjects with InternalError, and in a large bucket every pass. S3 lists what is
    // there: an entry gone meanwhile is skipped. (Patched before the store module takes its own reference.)
    const utils = require('s3rver/lib/utils') as { walk: (dir: string, filter?: (path: string) => boolean) => Generator<string> };
    utils.walk = function* walk(dir: string, recurseFilter?: (path: string) => boolean): Generator<string> {
      let names: string[];
      try { names = readdirSync(dir); } catch (error) { if ((error as NodeJS.ErrnoException).code === 'ENOENT') return; throw error; }
      for (const name of names) {
        const path = posix.join(dir, name);
        let directory: boolean;
        try { directory = statSync(path).isDirectory(); } catch (error) { if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue; throw error; }
        if (!directory) yield path;
        else if (!recurseFilter || recurseFilter(path)) yield* walk(path, recurseFilter);
      }
    };
    const store = (require('s3rver/lib/stores/filesystem') as { prototype: FilesystemStore }).prototype;
    store.putObject = async function putObject(this: FilesystemStore, object: S3rverObject) {
      const objectPath = this.getResourcePath(object.bucket, object.key, 'object');
      await mkdir(dirname(objectPath), { recursive: true });
      const md5 = crypto.createHash('md5');
      let size = 0;
      const count = new Transform({ transform(chunk: Buffer, _encoding, done) { md5.update(chunk); size += chunk.length; done(null, chunk); } });
      await pipeline(Buffer.isBuffer(object.content) ? Readable.from([object.content]) : object.content, count, createWriteStream(objectPath));
      const digest = md5.digest('hex');
      await this.putMetadata(object.bucket, object.key, object.metadata, digest);
      return { size, md5: digest };
    };
    // A metadata file caught mid-write reads as an object not there yet (as listing already treats a missing one),
    // rather than failing every listing of the bucket with a JSON syntax error.
    // eslint-disable-next-line @typescript-eslint/unbound-method -- called below with the store instance as `this`
    const getMetadata = store.getMetadata;
    store.getMetadata = async function tolerantMetadata(this: FilesystemStore, bucket: string, key: string) {
      try {
        return await getMetadata.call(this, bucket, key);
      } catch (error) {
        if (error instanceof SyntaxError) throw Object.assign(new Error(`metadata of ${key} is being written`), { code: 'ENOENT' });
        throw error;
      }
    };
    withoutDes(require);
    patched = true;
  }
  return require('s3rver') as S3rverConstructor;
}

/**
 * s3rver seals ListObjectsV2 continuation tokens with DES, which OpenSSL 3 (Node 18+) refuses: every truncated listing
 * (more keys than MaxKeys, or 1,000) failed with InternalError. Its bucket controller is loaded here with a `crypto`
 * whose DES is AES-128-CBC over the same key and IV, doubled to AES's sizes; a token that does not decrypt reads as
 * garbage, which s3rver refuses as S3 does (InvalidArgument), rather than failing the request.
 */
function withoutDes(require: NodeJS.Require): void {
  const controller = require.resolve('s3rver/lib/controllers/bucket');
  const twice = (bytes: crypto.BinaryLike) => { const b = Buffer.from(bytes as Uint8Array); return Buffer.concat([b, b]); };
  const aes = Object.assign(Object.create(crypto) as typeof crypto, {
    createCipheriv: (algorithm: string, key: crypto.CipherKey, iv: crypto.BinaryLike) =>
      (algorithm === 'des' ? crypto.createCipheriv('aes-128-cbc', twice(key as Uint8Array), twice(iv)) : crypto.createCipheriv(algorithm, key, iv)),
    createDecipheriv: (algorithm: string, key: crypto.CipherKey, iv: crypto.BinaryLike) => {
      if (algorithm !== 'des') return crypto.createDecipheriv(algorithm, key, iv);
      const decipher = crypto.createDecipheriv('aes-128-cbc', twice(key as Uint8Array), twice(iv));
      return { update: (data: Buffer) => decipher.update(data), final: () => { try { return decipher.final(); } catch { return Buffer.alloc(0); } } };
    },
  });
  // eslint-disable-next-line @typescript-eslint/unbound-method -- called below with the requiring module as `this`
  const load = Module.prototype.require;
  Module.prototype.require = function requireFor(this: Module, id: string): unknown {
    return this.filename === controller && id === 'crypto' ? aes : (load.call(this, id) as unknown);
  } as typeof load;
  try {
    require(controller);
  } finally {
    Module.prototype.require = load;
  }
}
