import { randomBytes } from 'node:crypto';
import { loadConfig, type Config } from '#shared/config.ts';

const secret = () => randomBytes(32).toString('base64url');

/** A complete configuration read through loadConfig, as a deployed function reads its environment. */
export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({
    TABLE_NAME: 'esign-test', BUCKET_NAME: 'esign-local-documents', BASE_URL: 'https://api.example.com', SIGNING_URL: 'https://sign.example.com',
    JWT_SECRET: secret(), LINK_SECRET: secret(), DATA_KEY: secret(), MAIL_FROM: 'no-reply@example.com',
    JOBS_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/000000000000/jobs', ...env,
  });
}
