/**
 * `npm run app:create -- --name "Acme" [--plan P] [--allow-active-content]`: creates an application and prints its
 * credentials as JSON. `--allow-active-content` lets it upload PDFs with JavaScript or launch actions (refused otherwise).
 * Against AWS when TABLE_NAME is set (with DATA_KEY and AWS credentials in the environment); otherwise
 * against the local data: through the running `npm start` if there is one, else on `.data/` directly.
 */
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { documentClient } from '#shared/adapters/aws/dynamo.ts';
import { DynamoApplicationRepository } from '#shared/adapters/aws/dynamo-application-repository.ts';
import { AesSecretBox } from '#shared/adapters/local/aes-secret-box.ts';
import { systemClock, uuidV7Ids } from '#shared/adapters/system.ts';
import { createApplication, type ApplicationDeps, type NewApplication } from '#shared/console/application-actions.ts';
import { JavaMissingError, startDynamoDbLocal } from './engines/dynamodb.ts';
import { ensureTable, LOCAL_CREDENTIALS, localSecrets, TABLE } from './provision.ts';

type Credentials = Awaited<ReturnType<typeof createApplication>>;

function depsFor(table: string, dataKey: string, dynamodb: Parameters<typeof documentClient>[0]): ApplicationDeps {
  return {
    config: { jwtSecret: '' }, clock: systemClock, ids: uuidV7Ids, secrets: new AesSecretBox(dataKey),
    applications: new DynamoApplicationRepository(documentClient(dynamodb), table),
  };
}

type Options = Pick<NewApplication, 'plan' | 'allowActiveContent'>;

async function viaRunningServer(dataDir: string, name: string, options: Options): Promise<Credentials | undefined> {
  let apiUrl: string;
  try {
    apiUrl = (JSON.parse(await readFile(join(dataDir, 'local.json'), 'utf8')) as { apiUrl: string }).apiUrl;
  } catch {
    return undefined;
  }
  try {
    const res = await fetch(`${apiUrl}/_local/apps`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name, ...options }) });
    return res.status === 201 ? ({ name, ...(await res.json()) as Omit<Credentials, 'name'> }) : undefined;
  } catch {
    return undefined; // a stale state file: the server is gone
  }
}

async function onLocalData(dataDir: string, name: string, options: Options): Promise<Credentials> {
  const engine = await startDynamoDbLocal({ dataDir: join(dataDir, 'dynamodb') });
  try {
    await ensureTable(engine.endpoint);
    const { dataKey } = await localSecrets(dataDir);
    const deps = depsFor(TABLE, dataKey, { endpoint: engine.endpoint, region: 'us-east-1', credentials: LOCAL_CREDENTIALS });
    return await createApplication(deps, { name, ...options });
  } finally {
    await engine.stop();
  }
}

async function main(): Promise<void> {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const { values } = parseArgs({ options: { name: { type: 'string' }, plan: { type: 'string' }, 'allow-active-content': { type: 'boolean' } } });
  const name = values.name?.trim();
  if (!name) throw new Error('Usage: npm run app:create -- --name "Application name" [--plan P] [--allow-active-content]');
  const options: Options = { ...(values.plan ? { plan: values.plan } : {}), ...(values['allow-active-content'] ? { allowActiveContent: true } : {}) };
  let created: Credentials;
  if (process.env.TABLE_NAME) {
    const dataKey = process.env.DATA_KEY;
    if (!dataKey) throw new Error('DATA_KEY must be set with TABLE_NAME (the key that seals client secrets)');
    created = await createApplication(depsFor(process.env.TABLE_NAME, dataKey, {}), { name, ...options });
  } else {
    const dataDir = resolve(process.env.DATA_DIR ?? '.data');
    created = (await viaRunningServer(dataDir, name, options)) ?? (await onLocalData(dataDir, name, options));
  }
  console.log(JSON.stringify(created, null, 2));
}

main().catch((error: unknown) => {
  console.error(error instanceof JavaMissingError || error instanceof Error ? error.message : error);
  process.exit(1);
});
