/**
 * The seal's deployment settings: each context value validated at synth and carried to the functions that seal (and
 * to no other).
 */
import { describe, expect, it } from 'vitest';
import { MAX_REVOCATION_GRACE_SECONDS } from '#shared/config.ts';
import { settingsFromContext } from '#infra/stacks/settings.ts';
import { manifestFunctions, newApp, synthesize, TEST_SETTINGS } from '#test/support/templates.ts';

const fromContext = (context: Record<string, unknown>) => settingsFromContext(newApp({ senderEmail: 'sign@example.com', ...context }).node);

describe('revocationGraceSeconds', () => {
  it('reaches the seal function as REVOCATION_GRACE_SECONDS, and no other function', () => {
    const functions = manifestFunctions(synthesize({ ...TEST_SETTINGS, revocationGraceSeconds: 30 }));
    const sealers = functions.filter((f) => f.env.SEAL_KEY_ID !== undefined);
    expect(sealers.map((f) => f.handler)).toContain('functions/workers/seal.ts');
    for (const fn of sealers) expect(fn.env.REVOCATION_GRACE_SECONDS, fn.handler).toBe('30');
    expect(functions.filter((f) => f.env.SEAL_KEY_ID === undefined && f.env.REVOCATION_GRACE_SECONDS !== undefined)).toEqual([]);
  });

  it('is left unset without the context, so the code\'s default applies', () => {
    const functions = manifestFunctions(synthesize());
    expect(functions.filter((f) => f.env.REVOCATION_GRACE_SECONDS !== undefined)).toEqual([]);
    expect(fromContext({}).revocationGraceSeconds).toBeNull();
  });

  it(`takes a whole number of seconds from 0 to ${String(MAX_REVOCATION_GRACE_SECONDS)}, as a string or a number`, () => {
    expect(fromContext({ revocationGraceSeconds: '0' }).revocationGraceSeconds).toBe(0);
    expect(fromContext({ revocationGraceSeconds: 120 }).revocationGraceSeconds).toBe(120);
    for (const bad of ['121', '-1', '2.5', 'soon', '1e2']) {
      expect(() => fromContext({ revocationGraceSeconds: bad }), bad).toThrow(/revocationGraceSeconds must be a whole number of seconds from 0 to 120/);
    }
  });
});
