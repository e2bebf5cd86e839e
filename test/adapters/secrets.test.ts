import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveSecrets } from '#shared/adapters/aws/secrets.ts';
import { loadConfig } from '#shared/config.ts';
import { productionDeps } from '#shared/deps.ts';

const sm = mockClient(SecretsManagerClient);
afterEach(() => sm.reset());

const arn = (name: string) => `arn:aws:secretsmanager:eu-west-1:111122223333:secret:${name}-AbCdEf`;
const JWT = 'j'.repeat(64);
const LINK = 'l'.repeat(64);

/** What a deployed function's configuration holds: ARNs and markers, no secret value (infra/stacks/environment.ts). */
const deployedEnv = {
  TABLE_NAME: 'Table', BUCKET_NAME: 'bucket', BASE_URL: 'https://api.example.com', SIGNING_URL: 'https://sign.example.com',
  JOBS_QUEUE_URL: 'https://sqs.eu-west-1.amazonaws.com/111122223333/jobs',
  JWT_SECRET: 'in-secrets-manager', JWT_SECRET_ARN: arn('JwtSecret'),
  LINK_SECRET: 'in-secrets-manager', LINK_SECRET_ARN: arn('LinkSecret'),
  DATA_KEY: 'unbound-in-this-function:DATA_KEY:no-access-granted',
};

describe('resolveSecrets', () => {
  it('reads every secret named by an ARN variable, in parallel, and leaves the rest of the environment alone', async () => {
    let inFlight = 0;
    let most = 0;
    sm.on(GetSecretValueCommand).callsFake(async ({ SecretId }: { SecretId: string }) => {
      most = Math.max(most, ++inFlight);
      await new Promise((resolve) => setImmediate(resolve));
      inFlight--;
      return { SecretString: SecretId.includes('JwtSecret') ? JWT : LINK };
    });
    const env = await resolveSecrets(deployedEnv, new SecretsManagerClient({ region: 'eu-west-1' }));
    expect(env).toEqual({ ...deployedEnv, JWT_SECRET: JWT, LINK_SECRET: LINK });
    expect(sm.commandCalls(GetSecretValueCommand).map((c) => c.args[0].input.SecretId).sort()).toEqual([arn('JwtSecret'), arn('LinkSecret')]);
    expect(most).toBe(2);
    expect(loadConfig(env)).toMatchObject({ jwtSecret: JWT, linkSecret: LINK });
  });

  it('calls nothing when no ARN is set (the local runtime and tests pass values directly)', async () => {
    const env = { JWT_SECRET: JWT };
    expect(await resolveSecrets(env, new SecretsManagerClient({ region: 'eu-west-1' }))).toEqual(env);
    expect(sm.calls()).toHaveLength(0);
  });

  it('fails the cold start with the variable at fault, without echoing what Secrets Manager said', async () => {
    sm.on(GetSecretValueCommand).rejects(Object.assign(new Error('User: arn:aws:sts::111122223333:assumed-role/x is not authorized'), { name: 'AccessDeniedException' }));
    const failure = resolveSecrets(deployedEnv, new SecretsManagerClient({ region: 'eu-west-1' }));
    await expect(failure).rejects.toThrow(/^JWT_SECRET could not be read from Secrets Manager \(JWT_SECRET_ARN\): AccessDeniedException$|^LINK_SECRET could not/);
    await expect(failure).rejects.not.toThrow(/assumed-role/);
    sm.reset();
    sm.on(GetSecretValueCommand).resolves({ SecretBinary: new Uint8Array([1, 2, 3]) });
    await expect(resolveSecrets(deployedEnv, new SecretsManagerClient({ region: 'eu-west-1' }))).rejects.toThrow(/has no string value/);
  });

  it('without the read, the marker fails the configuration check instead of becoming a key', () => {
    expect(() => loadConfig(deployedEnv)).toThrow(/JWT_SECRET must be at least 32 characters/);
    // The origin secret is optional, but the marker is not a value it may take either
    const resolved = { ...deployedEnv, JWT_SECRET: JWT, LINK_SECRET: LINK };
    expect(() => loadConfig({ ...resolved, ORIGIN_VERIFY_SECRET: 'in-secrets-manager' })).toThrow(/ORIGIN_VERIFY_SECRET must be at least 32 characters/);
    expect(loadConfig(resolved).originVerifySecret).toBeNull();
    expect(loadConfig({ ...resolved, ORIGIN_VERIFY_SECRET: 'o'.repeat(64) }).originVerifySecret).toBe('o'.repeat(64));
  });
});

describe('productionDeps', () => {
  it('wires the deployed dependencies with the secrets read at cold start, and tries again after a failed read', async () => {
    const saved = { ...process.env };
    try {
      Object.assign(process.env, deployedEnv, { AWS_REGION: 'eu-west-1', DATA_KEY: 'd'.repeat(64) });
      sm.on(GetSecretValueCommand).rejectsOnce(Object.assign(new Error('throttled'), { name: 'ThrottlingException' }))
        .resolves({ SecretString: JWT });
      await expect(productionDeps()).rejects.toThrow(/ThrottlingException/);
      const deps = await productionDeps();
      expect(deps.config).toMatchObject({ jwtSecret: JWT, linkSecret: JWT });
      expect(await productionDeps()).toBe(deps); // once per container
    } finally {
      process.env = saved;
    }
  });
});
