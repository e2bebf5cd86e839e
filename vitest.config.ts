import { defineConfig } from 'vitest/config';

/** Tests that need the shared local stack (DynamoDB Local, s3rver, SES, the API and signing page on ports). */
const ON_ENGINES = [
  'test/e2e/**/*.test.ts', 'test/browser/**/*.test.ts', 'test/adapters/dynamo-*.test.ts', 'test/adapters/s3-*.test.ts',
  'test/infra/cdk-bundle.test.ts', 'shared/**/*.invariants.test.ts',
];
/**
 * The projects that list it share one local stack (test/support/global-setup.ts keeps it on globalThis); the root
 * project and `unit` list none, so they start none.
 */
const STACK = ['test/support/global-setup.ts'];

/**
 * Four projects. `unit`: everything that needs no engine (domain, PDF, HTTP pipeline, functions and use cases on the
 * in-memory adapters), so `npx vitest run --project unit` starts no stack. `main`: the tests on the local engines,
 * sharing the service clock's "now". Then `clock`: the tests that move the clock (expiry, retries, retention), one
 * file at a time so no other test sees time jump. Then `trace`: every AWS call the local functions made during the
 * other two, checked against their roles.
 */
export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // expect.poll waits on pages and background work; a loaded CI machine needs far more than the 1 s default
    expect: { poll: { timeout: 15_000 } },
    pool: 'forks',
    reporters: ['default', './test/support/summary-reporter.ts'],
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/**/*.test.ts', 'shared/**/*.test.ts'], exclude: ['test/clock/**', 'test/trace/**', ...ON_ENGINES], sequence: { groupOrder: 0 } } },
      // Invariant suites (races, faults) sit beside the use cases they prove.
      { extends: true, test: { name: 'main', globalSetup: STACK, include: ON_ENGINES, sequence: { groupOrder: 0 } } },
      { extends: true, test: { name: 'clock', globalSetup: STACK, include: ['test/clock/**/*.test.ts'], fileParallelism: false, sequence: { groupOrder: 1 } } },
      { extends: true, test: { name: 'trace', globalSetup: STACK, include: ['test/trace/**/*.test.ts'], sequence: { groupOrder: 2 } } },
    ],
  },
});
