import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { classifyTests } from './test/support/test-projects.ts';

/**
 * The projects that list it share one local stack (test/support/global-setup.ts keeps it on globalThis); `unit`
 * lists none, so it starts none.
 */
const STACK = ['test/support/global-setup.ts'];

/** Folders whose tests form a project of their own whatever they import. */
const OWN_PROJECT = ['test/browser/', 'test/clock/', 'test/trace/'];
const own = (file: string) => OWN_PROJECT.some((dir) => file.startsWith(dir));

/** Test files split by what they do: those that start an engine or read the local stack's endpoints, and the rest. */
const tests = classifyTests(fileURLToPath(new URL('.', import.meta.url)), ['test', 'shared']);

/**
 * Five projects (docs/testing.md). `unit`: every test that needs no engine (domain, PDF, HTTP pipeline, functions
 * and use cases on the in-memory adapters, CDK synthesis); it runs with ESIGN_NO_ENGINES set, so an engine started
 * by mistake throws instead of starting. `engines`: the tests that start an engine (DynamoDB Local, s3rver, SES,
 * SQS, the local PKI) or use the shared local stack. `browser`: the signing pages in Chromium against the stack.
 * These three run together and share the service clock's "now". Then `clock`: the tests that move the clock
 * (expiry, retries, retention), one file at a time so no other test sees time jump. Then `trace`: every AWS call
 * the local functions made during the others, checked against their roles.
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
      { extends: true, test: { name: 'unit', include: tests.unit.filter((f) => !own(f)), env: { ESIGN_NO_ENGINES: 'unit' }, sequence: { groupOrder: 0 } } },
      { extends: true, test: { name: 'engines', globalSetup: STACK, include: [...tests.engines.keys()].filter((f) => !own(f)), sequence: { groupOrder: 0 } } },
      { extends: true, test: { name: 'browser', globalSetup: STACK, include: ['test/browser/**/*.test.ts'], sequence: { groupOrder: 0 } } },
      { extends: true, test: { name: 'clock', globalSetup: STACK, include: ['test/clock/**/*.test.ts'], fileParallelism: false, sequence: { groupOrder: 1 } } },
      { extends: true, test: { name: 'trace', globalSetup: STACK, include: ['test/trace/**/*.test.ts'], sequence: { groupOrder: 2 } } },
    ],
  },
});
