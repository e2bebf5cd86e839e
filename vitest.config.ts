import { defineConfig } from 'vitest/config';

/**
 * Three groups, one after the other: everything that shares the service clock's "now"; then the tests that move
 * the clock (expiry, retries, retention), which run one file at a time so no other test sees time jump; then the
 * IAM trace, which checks every AWS call the local functions made during the other two against their roles.
 */
export default defineConfig({
  test: {
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // expect.poll waits on pages and background work; a loaded CI machine needs far more than the 1 s default
    expect: { poll: { timeout: 15_000 } },
    pool: 'forks',
    reporters: ['default', './test/support/summary-reporter.ts'],
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    projects: [
      { extends: true, test: { name: 'main', include: ['test/**/*.test.ts'], exclude: ['test/clock/**', 'test/trace/**'], sequence: { groupOrder: 0 } } },
      { extends: true, test: { name: 'clock', include: ['test/clock/**/*.test.ts'], fileParallelism: false, sequence: { groupOrder: 1 } } },
      { extends: true, test: { name: 'trace', include: ['test/trace/**/*.test.ts'], sequence: { groupOrder: 2 } } },
    ],
  },
});
