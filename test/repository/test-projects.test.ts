/**
 * The test projects say what they start (docs/testing.md): a test file that starts an engine or reads the local
 * stack is told apart by what it does (test/support/test-projects.ts), and in the `unit` project every engine
 * refuses to start. This file runs in `unit` itself.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import * as dynamodb from '#local/engines/dynamodb.ts';
import * as pki from '#local/engines/local-ca.ts';
import * as s3 from '#local/engines/s3.ts';
import * as ses from '#local/engines/ses.ts';
import * as sqs from '#local/engines/sqs.ts';
import * as stack from '#local/stack.ts';
import { REPO_ROOT } from '#infra/constructs/bundling.ts';
import { classifyTests } from '#test/support/test-projects.ts';

describe('the unit project', () => {
  it('runs with the engines barred, and each engine then refuses to start, naming itself', async () => {
    expect(process.env.ESIGN_NO_ENGINES).toBe('unit');
    // Reached through the module namespaces, so this file does not read as one that starts an engine.
    const starters: [Record<string, unknown>, string, string][] = [
      [dynamodb, 'startDynamoDbLocal', 'DynamoDB Local'], [s3, 'startS3', 's3rver'], [ses, 'startSes', 'SES'], [sqs, 'startSqs', 'SQS'],
      [pki, 'startLocalPki', 'PKI'], [stack, 'startLocalStack', 'local stack'],
    ];
    for (const [module, name, engine] of starters) {
      const start = module[name] as (...args: unknown[]) => Promise<unknown>;
      const refusal = await start({ dir: tmpdir(), dataDir: tmpdir() }).then(() => null, (error: unknown) => error);
      expect(refusal, name).toBeInstanceOf(Error);
      expect((refusal as Error).message, name).toContain(engine);
      expect((refusal as Error).message, name).toMatch(/ESIGN_NO_ENGINES=unit.*engines project/);
    }
  });
});

describe('which project a test file lands in', () => {
  const dirs: string[] = [];
  afterAll(async () => { await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))); });

  async function tree(files: Record<string, string>): Promise<string> {
    const root = await mkdtemp(join(tmpdir(), 'test-projects-'));
    dirs.push(root);
    for (const [path, text] of Object.entries(files)) {
      await mkdir(dirname(join(root, path)), { recursive: true });
      await writeFile(join(root, path), text);
    }
    return root;
  }

  // Spelled in pieces: this file itself must not read as one that reads the stack or starts an engine.
  const INJECT = ['inj', 'ect'].join('');
  const START_SES = ['start', 'Ses'].join('');

  it('is engines when the file, or a test module it imports (followed through), starts an engine or reads the stack', async () => {
    const root = await tree({
      'test/support/stack.ts': `import { ${INJECT} } from 'vitest';\nexport const url = () => ${INJECT}('apiUrl');\n`,
      'test/support/via.ts': "import { url } from './stack.ts';\nexport const home = () => url();\n",
      'test/support/typed.ts': "import type { url } from './stack.ts';\nexport const one = 1;\n",
      'test/support/pure.ts': 'export const two = 2;\n',
      'test/a/uses-stack.test.ts': "import { home } from '#test/support/via.ts';\n",
      'test/a/own-engine.test.ts': `const engine = await ${START_SES}({});\n`,
      'test/a/pure.test.ts': "import { two } from '../support/pure.ts';\nimport { one } from '#test/support/typed.ts';\n",
      'shared/x.invariants.test.ts': "import { url } from '#test/support/stack.ts';\n",
      'test/fixtures/ignored.test.ts': `${INJECT}('apiUrl');\n`,
    });
    const { engines, unit } = classifyTests(root, ['test', 'shared']);
    expect(Object.fromEntries(engines)).toEqual({
      'shared/x.invariants.test.ts': 'shared/x.invariants.test.ts -> test/support/stack.ts',
      'test/a/own-engine.test.ts': 'test/a/own-engine.test.ts',
      'test/a/uses-stack.test.ts': 'test/a/uses-stack.test.ts -> test/support/via.ts -> test/support/stack.ts',
    });
    expect(unit).toEqual(['test/a/pure.test.ts']);
  });

  it('puts the repository\'s own tests where they belong', () => {
    const { engines, unit } = classifyTests(REPO_ROOT, ['test', 'shared']);
    for (const file of ['test/e2e/auth.test.ts', 'test/adapters/dynamo-envelope-repository.test.ts', 'test/infra/engines.test.ts', 'shared/envelopes/races.invariants.test.ts']) {
      expect(engines.has(file), file).toBe(true);
    }
    for (const file of ['test/domain/envelope.test.ts', 'test/functions/otp-lock.test.ts', 'test/repository/test-projects.test.ts', 'test/infra/cdk.test.ts']) {
      expect(unit, file).toContain(file);
    }
  });
});
