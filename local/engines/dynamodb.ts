import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort, isPortFree } from './free-port.ts';
import { refuseIfEnginesBarred, type RunningEngine } from './types.ts';

export type { RunningEngine } from './types.ts';

const MIN_JAVA_MAJOR = 17;
const READY_TIMEOUT_MS = 30_000;
const POLL_INTERVAL_MS = 100;
const KILL_GRACE_MS = 3_000;
const OUTPUT_TAIL_CHARS = 4_000;
// A freshly picked free port can be taken by someone else before Java binds it.
const MAX_PORT_ATTEMPTS = 3;
const BIND_FAILURE = /BindException|Failed to bind/;

export class JavaMissingError extends Error {
  constructor(found: string) {
    super(
      `DynamoDB Local needs Java ${MIN_JAVA_MAJOR}+ to run the local database, but ${found}. ` +
        'Install a Java runtime, e.g. `apt-get install openjdk-17-jre-headless` (Debian/Ubuntu) ' +
        'or `brew install openjdk@17` (macOS), and make sure `java` is on your PATH.',
    );
    this.name = 'JavaMissingError';
  }
}

export interface DynamoDbLocalOptions {
  /** Persist tables under this directory; in-memory when omitted. */
  readonly dataDir?: string;
  /** Port to listen on; a free one when omitted. */
  readonly port?: number;
}

export interface DynamoDbLocalEngine extends RunningEngine {
  /** PID of the java child process. */
  readonly pid: number;
}

export async function startDynamoDbLocal(opts: DynamoDbLocalOptions = {}): Promise<DynamoDbLocalEngine> {
  refuseIfEnginesBarred('DynamoDB Local');
  await assertJava();
  const dataDir = opts.dataDir === undefined ? undefined : resolve(opts.dataDir);
  if (dataDir !== undefined) await mkdir(dataDir, { recursive: true });
  for (let attempt = 1; ; attempt++) {
    const port = opts.port ?? (await freePort());
    try {
      return await launch(port, dataDir);
    } catch (err) {
      const retry = opts.port === undefined && attempt < MAX_PORT_ATTEMPTS && isPortClash(err);
      if (!retry) throw err;
    }
  }
}

// ---------- Java check ----------

async function assertJava(): Promise<void> {
  const output = await javaVersionOutput();
  if (output === undefined) throw new JavaMissingError('no `java` command was found');
  const major = parseJavaMajor(output);
  if (major === undefined) throw new JavaMissingError(`\`java -version\` printed something unexpected: ${output.trim()}`);
  if (major < MIN_JAVA_MAJOR) throw new JavaMissingError(`the installed Java is version ${major}`);
}

/** `java -version` output (it prints to stderr), or undefined when java cannot be run. */
function javaVersionOutput(): Promise<string | undefined> {
  return new Promise((done) => {
    execFile('java', ['-version'], { timeout: 10_000 }, (err, stdout, stderr) => {
      done(err ? undefined : `${stderr}${stdout}`);
    });
  });
}

/** Handles both `version "17.0.15"` and the legacy `version "1.8.0_392"` form. */
export function parseJavaMajor(versionOutput: string): number | undefined {
  const match = /version "(\d+)(?:\.(\d+))?/.exec(versionOutput);
  if (!match) return undefined;
  const first = Number(match[1]);
  return first === 1 && match[2] !== undefined ? Number(match[2]) : first;
}

// ---------- process ----------

function emulatorPaths(): { jar: string; lib: string; dir: string } {
  const pkgJson = createRequire(import.meta.url).resolve('amplify-dynamodb-simulator/package.json');
  const dir = join(dirname(pkgJson), 'emulator');
  return { dir, jar: join(dir, 'DynamoDBLocal.jar'), lib: join(dir, 'DynamoDBLocal_lib') };
}

function javaArgs(port: number, dataDir: string | undefined): string[] {
  const { jar, lib } = emulatorPaths();
  const storage = dataDir === undefined ? ['-inMemory'] : ['-dbPath', dataDir];
  // -sharedDb: one database whatever the client's credentials/region (otherwise tables are per access key).
  // -disableTelemetry: the service must run offline and not phone home.
  return [`-Djava.library.path=${lib}`, '-jar', jar, ...storage, '-sharedDb', '-disableTelemetry', '-port', String(port)];
}

async function launch(port: number, dataDir: string | undefined): Promise<DynamoDbLocalEngine> {
  // Java binds 0.0.0.0 and, when that fails, stays alive without serving: check up front instead.
  if (!(await isPortFree(port))) throw new Error(`DynamoDB Local failed to start: port ${port} is already in use.`);
  const child = spawn('java', javaArgs(port, dataDir), {
    cwd: emulatorPaths().dir,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = captureTail(child);
  const killOnExit = (): void => {
    child.kill('SIGKILL');
  };
  process.on('exit', killOnExit);
  const endpoint = `http://127.0.0.1:${port}`;
  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= terminate(child).finally(() => process.off('exit', killOnExit));
    return stopping;
  };
  try {
    const pid = await waitUntilReady(child, endpoint, output);
    return { endpoint, pid, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

interface OutputTail {
  text(): string;
}

/** Keeps the last few KB of stdout+stderr (also drains the pipes so Java never blocks on them). */
function captureTail(child: ChildProcess): OutputTail {
  let tail = '';
  const append = (chunk: Buffer): void => {
    tail = (tail + chunk.toString('utf8')).slice(-OUTPUT_TAIL_CHARS);
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  return { text: () => tail.trim() };
}

function hasExited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

/** Resolves with the child's pid once it answers HTTP. */
async function waitUntilReady(child: ChildProcess, endpoint: string, output: OutputTail): Promise<number> {
  let spawnError: Error | undefined;
  child.once('error', (err) => {
    spawnError = err;
  });
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (spawnError) throw startError(`could not spawn java (${spawnError.message})`, output);
    if (hasExited(child)) throw startError(`java exited early (code ${child.exitCode ?? child.signalCode})`, output);
    if (BIND_FAILURE.test(output.text())) throw startError(`port ${new URL(endpoint).port} is already in use`, output);
    if (child.pid !== undefined && (await answersHttp(endpoint))) return child.pid;
    await sleep(POLL_INTERVAL_MS);
  }
  throw startError(`not ready after ${READY_TIMEOUT_MS / 1000} s`, output);
}

/** Any HTTP response counts: DynamoDB Local answers a bare GET with 400. */
async function answersHttp(endpoint: string): Promise<boolean> {
  try {
    const res = await fetch(endpoint, { signal: AbortSignal.timeout(1_000) });
    await res.body?.cancel();
    return true;
  } catch {
    return false;
  }
}

function startError(reason: string, output: OutputTail): Error {
  const tail = output.text();
  return new Error(`DynamoDB Local failed to start: ${reason}.${tail ? `\n--- java output (tail) ---\n${tail}` : ''}`);
}

function isPortClash(err: unknown): boolean {
  return err instanceof Error && err.message.includes('already in use');
}

/** SIGTERM, then SIGKILL after a grace period; resolves once the process has exited. */
function terminate(child: ChildProcess): Promise<void> {
  if (hasExited(child) || child.pid === undefined) return Promise.resolve();
  return new Promise((done) => {
    const forceKill = setTimeout(() => child.kill('SIGKILL'), KILL_GRACE_MS);
    child.once('exit', () => {
      clearTimeout(forceKill);
      done();
    });
    child.kill('SIGTERM');
  });
}
