import { writeFile, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { JavaMissingError } from './engines/dynamodb.ts';
import { sealKeySpecOf } from '#shared/adapters/seal-key-spec.ts';
import { startLocalStack, type LocalStackOptions } from './stack.ts';

const port = (name: string, fallback: number) => {
  const raw = process.env[name];
  const value = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isInteger(value) || value < 0 || value > 65535) throw new Error(`${name} must be a port number, got ${String(raw)}`);
  return value;
};

/** SIGNER=csc: a real provider when CSC_BASE_URL is set (its CSC_* settings and secrets from the environment), else the local one. */
function signerOptions(env: NodeJS.ProcessEnv): Pick<LocalStackOptions, 'signer' | 'csc'> {
  const signer = env.SIGNER ?? 'kms';
  if (signer !== 'kms' && signer !== 'csc') throw new Error(`SIGNER must be kms or csc, got ${signer}`);
  if (signer === 'kms') return {};
  if (!env.CSC_BASE_URL) {
    const credential = env.CSC_LOCAL_KEY ?? 'rsa';
    if (credential !== 'rsa' && credential !== 'ec') throw new Error(`CSC_LOCAL_KEY must be rsa or ec, got ${credential}`);
    return { signer, csc: { credential } };
  }
  const required = (name: string): string => {
    const value = env[name];
    if (!value) throw new Error(`SIGNER=csc with CSC_BASE_URL needs ${name}`);
    return value;
  };
  return {
    signer,
    csc: {
      baseUrl: env.CSC_BASE_URL, clientId: required('CSC_CLIENT_ID'), clientSecret: required('CSC_CLIENT_SECRET'), credentialId: required('CSC_CREDENTIAL_ID'),
      ...(env.CSC_PIN ? { pin: env.CSC_PIN } : {}), ...(env.CSC_OTP ? { otp: env.CSC_OTP } : {}),
    },
  };
}

async function main(): Promise<void> {
  const dataDir = resolve(process.env.DATA_DIR ?? '.data');
  console.log(`Starting the e-signature service locally (data in ${dataDir}) ...`);
  const stack = await startLocalStack({
    dataDir,
    port: port('PORT', 3000),
    signingPort: port('SIGNING_PORT', 3001),
    oidcPort: port('OIDC_PORT', 3002),
    devAdmin: { email: process.env.LOCAL_ADMIN_EMAIL ?? 'admin@localhost', password: process.env.LOCAL_ADMIN_PASSWORD ?? 'local-password' },
    devClient: { clientId: process.env.LOCAL_CLIENT_ID ?? 'local-client', clientSecret: process.env.LOCAL_CLIENT_SECRET ?? 'local-secret' },
    baseUrl: process.env.BASE_URL, signingUrl: process.env.SIGNING_URL, mailFrom: process.env.MAIL_FROM, senderCopyEmail: process.env.SENDER_COPY_EMAIL,
    ...(process.env.SEAL_KEY_SPEC ? { sealKeySpec: sealKeySpecOf(process.env.SEAL_KEY_SPEC, 'SEAL_KEY_SPEC') } : {}),
    ...(process.env.RATE_LIMITS ? { rateLimits: JSON.parse(process.env.RATE_LIMITS) as Record<string, unknown> } : {}),
    ...signerOptions(process.env),
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
    `  Console       ${stack.signingUrl}/app/   (sign in as ${stack.devAdmin.email} / ${stack.devAdmin.password}; OpenID provider ${stack.signIn.oidc.issuer})`,
    '',
    `  Try it:       npm run demo   (an envelope from create to sealed PDF, in another terminal${stack.apiUrl === 'http://127.0.0.1:3000' ? '' : `; API_URL=${stack.apiUrl}`})`,
    ...(stack.csc ? [`  CSC provider  ${stack.csc.baseUrl}   (seals verify against ${stack.apiUrl}/_local/csc/root.pem)`] : []),
    `  Clock:        POST ${stack.apiUrl}/_local/clock {"advanceSeconds": N}; bearer tokens expire on the service clock (1 h)`,
    '  Ctrl-C stops everything.',
    '',
  ].join('\n'));
}

main().catch((error: unknown) => {
  if (error instanceof JavaMissingError) console.error(`\n${error.message}\n`);
  else if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') console.error(`\nA port is already in use (${(error as Error).message}). Set PORT / SIGNING_PORT / OIDC_PORT to free ones.\n`);
  else console.error(error);
  process.exit(1);
});
