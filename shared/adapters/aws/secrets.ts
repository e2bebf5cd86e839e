import { GetSecretValueCommand, SecretsManagerClient, type SecretsManagerClientConfig } from '@aws-sdk/client-secrets-manager';
import { secretArnVariable, secretsToRead } from './secret-names.ts';

export { SECRET_NAMES, secretArnVariable, type SecretName } from './secret-names.ts';

/** The Secrets Manager client of a function (built only by functions that have a secret to read). */
export const secretsManagerClient = (config: SecretsManagerClientConfig = {}) => new SecretsManagerClient(config);

type Env = Record<string, string | undefined>;

/**
 * The environment with every secret named by a `<NAME>_ARN` variable read from Secrets Manager, in parallel, at cold
 * start. The values live only in the container's memory: not in the function's configuration, where anyone allowed
 * to read it would see them, and a new container picks up a rotated value without a redeploy. Variables without an
 * ARN (the local runtime, tests) are left as they are.
 */
export async function resolveSecrets(env: Env, client: Pick<SecretsManagerClient, 'send'> = secretsManagerClient()): Promise<Env> {
  const wanted = secretsToRead(env);
  const values = await Promise.all(wanted.map(async ({ name, arn }) => {
    let value: string | undefined;
    try {
      value = (await client.send(new GetSecretValueCommand({ SecretId: arn }))).SecretString;
    } catch (error) {
      throw new Error(`${name} could not be read from Secrets Manager (${secretArnVariable(name)}): ${(error as Error).name}`);
    }
    if (!value) throw new Error(`${name} in Secrets Manager has no string value (${secretArnVariable(name)})`);
    return [name, value] as const;
  }));
  return { ...env, ...Object.fromEntries(values) };
}
