import { writeFile, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { JavaMissingError } from './engines/dynamodb.ts';
import { sealKeySpecOf } from '#adapters/seal-key-spec.ts';
import { startLocalStack } from './stack.ts';

const port = (name: string, fallback: number) => {
  const raw = process.env[name];
  const value = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isInteger(value) || value < 0 || value > 65535) throw new Error(`${name} must be a port number, got ${String(raw)}`);
  return value;
};

async function main(): Promise<void> {
  const dataDir = resolve(process.env.DATA_DIR ?? '.data');
  console.log(`Starting the e-signature service locally (data in ${dataDir}) ...`);
  const stack = await startLocalStack({
    dataDir,
    port: port('PORT', 3000),
    signingPort: port('SIGNING_PORT', 3001),
    devClient: { clientId: process.env.LOCAL_CLIENT_ID ?? 'local-client', clientSecret: process.env.LOCAL_CLIENT_SECRET ?? 'local-secret' },
    baseUrl: process.env.BASE_URL, signingUrl: process.env.SIGNING_URL, mailFrom: process.env.MAIL_FROM, senderCopyEmail: process.env.SENDER_COPY_EMAIL,
    ...(process.env.SEAL_KEY_SPEC ? { sealKeySpec: sealKeySpecOf(process.env.SEAL_KEY_SPEC, 'SEAL_KEY_SPEC') } : {}),
    ...(process.env.RATE_LIMITS ? { rateLimits: JSON.parse(process.env.RATE_LIMITS) as Record<string, unknown> } : {}),
  });
  const stateFile = join(dataDir, 'local.json');
  await writeFile(stateFile, JSON.stringify({ apiUrl: stack.apiUrl, pid: process.pid }));
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: stopping ...`);
    await rm(stateFile, { force: true });
    await stack.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  console.log([
    '',
    `  Ready         ${stack.apiUrl}/healthz`,
    `  API           ${stack.apiUrl}   (OpenAPI: ${stack.apiUrl}/v1/openapi.json)`,
    `  API reference ${stack.apiUrl}/docs/`,
    `  Mailbox       ${stack.apiUrl}/_local/mailbox   (every email and SMS; JSON: ${stack.apiUrl}/_local/outbox)`,
    `  Signing host  ${stack.signingUrl}   (reference also at ${stack.signingUrl}/docs/)`,
    `  Client id     ${stack.devApp.clientId}`,
    `  Client secret ${stack.devApp.clientSecret}`,
    '',
    `  Try it:       npm run demo   (an envelope from create to sealed PDF, in another terminal${stack.apiUrl === 'http://127.0.0.1:3000' ? '' : `; API_URL=${stack.apiUrl}`})`,
    `  Clock:        POST ${stack.apiUrl}/_local/clock {"advanceSeconds": N}; bearer tokens expire on the service clock (1 h)`,
    '  Ctrl-C stops everything.',
    '',
  ].join('\n'));
}

main().catch((error: unknown) => {
  if (error instanceof JavaMissingError) console.error(`\n${error.message}\n`);
  else if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') console.error(`\nA port is already in use (${(error as Error).message}). Set PORT / SIGNING_PORT to free ones.\n`);
  else console.error(error);
  process.exit(1);
});
