/**
 * The seal's deployment settings: each context value validated at synth and carried where it applies (the seal key's
 * spec to the KMS key, the revocation grace to the functions that seal and no other).
 */
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { SEAL_KEY_SPECS } from '#shared/adapters/seal-key-spec.ts';
import { MAX_REVOCATION_GRACE_SECONDS } from '#shared/config.ts';
import { createService } from '#infra/stacks/service.ts';
import { functionEnvironment, type ServiceResources } from '#infra/stacks/environment.ts';
import { RESERVABLE } from '#infra/stacks/functions.ts';
import { functionSettings, settingsFromContext } from '#infra/stacks/settings.ts';
import { manifestFunctions, newApp, resourcesOfType, synthesize, TEST_SETTINGS } from '#test/support/templates.ts';

const placeholderResources = new Proxy({}, { get: (_target, key) => `{{${String(key)}}}` }) as ServiceResources;
const fromContext = (context: Record<string, unknown>) => settingsFromContext(newApp({ senderEmail: 'sign@example.com', ...context }).node);

describe('revocationGraceSeconds', () => {
  // The whole app, synthesized once (in a hook, whose time limit fits a synth on a busy machine).
  let functions: ReturnType<typeof manifestFunctions>;
  beforeAll(() => { functions = manifestFunctions(synthesize({ ...TEST_SETTINGS, revocationGraceSeconds: 30, tsaUrl: 'https://tsa.example/' })); });

  it('reaches the seal function as REVOCATION_GRACE_SECONDS, and no other function', () => {
    const sealers = functions.filter((f) => f.env.SEAL_KEY_ID !== undefined);
    expect(sealers.map((f) => f.handler)).toContain('functions/workers/seal.ts');
    for (const fn of sealers) expect(fn.env.REVOCATION_GRACE_SECONDS, fn.handler).toBe('30');
    expect(functions.filter((f) => f.env.SEAL_KEY_ID === undefined && f.env.REVOCATION_GRACE_SECONDS !== undefined)).toEqual([]);
  });

  it('the archive sweep asks the timestamp authority but may not sign with the seal key', () => {
    const sweep = functions.find((f) => f.handler === 'functions/workers/archive-sweep.ts');
    expect(sweep?.env.TSA_URL).toBe('https://tsa.example/');
    expect(sweep?.env.SEAL_KEY_ID).toBeUndefined();
    expect(JSON.stringify(sweep?.statements)).not.toContain('kms:Sign');
    expect(JSON.stringify(sweep?.statements)).toContain('s3:PutObject');
  });

  it('is left unset without the context, so the code\'s default applies', () => {
    const settings = fromContext({});
    expect(settings.revocationGraceSeconds).toBeNull();
    expect(functionEnvironment(RESERVABLE.seal, placeholderResources, functionSettings(settings, 'key-id')).REVOCATION_GRACE_SECONDS).toBeUndefined();
    expect(functionEnvironment(RESERVABLE.seal, placeholderResources, functionSettings({ ...settings, revocationGraceSeconds: 0 }, 'key-id')).REVOCATION_GRACE_SECONDS).toBe('0');
  });

  it(`takes a whole number of seconds from 0 to ${String(MAX_REVOCATION_GRACE_SECONDS)}, as a string or a number`, () => {
    expect(fromContext({ revocationGraceSeconds: '0' }).revocationGraceSeconds).toBe(0);
    expect(fromContext({ revocationGraceSeconds: 120 }).revocationGraceSeconds).toBe(120);
    for (const bad of ['121', '-1', '2.5', 'soon', '1e2']) {
      expect(() => fromContext({ revocationGraceSeconds: bad }), bad).toThrow(/revocationGraceSeconds must be a whole number of seconds from 0 to 120/);
    }
  });
});

describe('sealKeySpec', () => {
  const sealKeys = (template: Template) =>
    resourcesOfType(template, 'AWS::KMS::Key').filter(([, k]) => k.Properties.KeyUsage === 'SIGN_VERIFY').map(([, k]) => k.Properties.KeySpec);

  /** The data stack alone (synthesizing the others takes long), from the context as `cdk deploy -c` gives it. */
  const dataStack = (context: Record<string, unknown>) => {
    const app = newApp({ senderEmail: 'sign@example.com', webDistPath: TEST_SETTINGS.webDistPath, ...context });
    return createService(app, settingsFromContext(app.node)).data;
  };

  it('makes the KMS seal key ECC_NIST_P256 by default, and warns a deployment that may hold an RSA_2048 key how to keep it', () => {
    const data = dataStack({});
    expect(sealKeys(Template.fromStack(data))).toEqual(['ECC_NIST_P256']);
    expect(Annotations.fromStack(data).findWarning('*', Match.stringLikeRegexp('sealKeySpec=RSA_2048'))).toHaveLength(1);
  });

  it('reads every spec from the context, in any case', () => {
    for (const spec of SEAL_KEY_SPECS) expect(fromContext({ sealKeySpec: spec.toLowerCase() }).sealKeySpec).toBe(spec);
  });

  it.each(['RSA_2048', 'RSA_3072'] as const)('makes a %s key when the context names it, without the warning', (spec) => {
    const data = dataStack({ sealKeySpec: spec });
    expect(sealKeys(Template.fromStack(data))).toEqual([spec]);
    expect(Annotations.fromStack(data).findWarning('*', Match.stringLikeRegexp('sealKeySpec'))).toEqual([]);
  });

  it('refuses a spec no seal is made with', () => {
    for (const bad of ['ECC_NIST_P384', 'RSA_1024', 'HMAC_256']) {
      expect(() => fromContext({ sealKeySpec: bad }), bad).toThrow(/sealKeySpec must be one of ECC_NIST_P256, RSA_3072, RSA_4096, RSA_2048/);
    }
  });
});
