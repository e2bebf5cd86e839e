/**
 * The deployment secrets and the variables that name them, with no AWS SDK import: CDK binds them (infra) and every
 * function checks them at start (shared/deps.ts) without loading the Secrets Manager client unless it has one to read.
 */
export const SECRET_NAMES = ['JWT_SECRET', 'LINK_SECRET', 'DATA_KEY', 'ORIGIN_VERIFY_SECRET'] as const;
export type SecretName = (typeof SECRET_NAMES)[number];

/**
 * The seal's secrets at a trust service provider (SIGNER=csc): secrets the operator creates and names in the CDK
 * context, given to the seal function only.
 */
export const CSC_SECRET_NAMES = ['CSC_CLIENT_SECRET', 'CSC_PIN', 'CSC_OTP'] as const;
export type CscSecretName = (typeof CSC_SECRET_NAMES)[number];

/** Each function gets `<NAME>_ARN` for the secrets it may read. */
export const secretArnVariable = (name: SecretName | CscSecretName) => `${name}_ARN`;

/** The secrets the environment names by ARN, which are to be read from Secrets Manager. */
export function secretsToRead(env: Record<string, string | undefined>): { name: SecretName | CscSecretName; arn: string }[] {
  return [...SECRET_NAMES, ...CSC_SECRET_NAMES].flatMap((name) => {
    const arn = env[secretArnVariable(name)];
    return arn ? [{ name, arn }] : [];
  });
}
