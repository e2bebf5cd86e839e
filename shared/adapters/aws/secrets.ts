import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';

/** The deployment secrets (DESIGN 8): each function gets `<NAME>_ARN` for those it may read. */
export const SECRET_NAMES = ['JWT_SECRET', 'LINK_SECRET', 'DATA_KEY', 'ORIGIN_VERIFY_SECRET'] as const;
export type SecretName = (typeof SECRET_NAMES)[number];

export const secretArnVariable = (name: SecretName) => `${name}_ARN`;

type Env = Record<string, string | undefined>;

/**
 * The environment with every secret named by a `<NAME>_ARN` variable read from Secrets Manager, in parallel, at cold
 * start. The values live only in the container's memory: not in the function's configuration, where anyone allowed
 * to read it would see them, and a new container picks up a rotated value without a redeploy. Variables without an
 * ARN (the local runtime, tests) are left as they are.
 */
export async function resolveSecrets(env: Env, client: Pick<SecretsManagerClient, 'send'> = new SecretsManagerClient({})): Promise<Env> {
  const wanted = SECRET_NAMES.flatMap((name) => {
    const arn = env[secretArnVariable(name)];
    return arn ? [{ name, arn }] : [];
  });
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
