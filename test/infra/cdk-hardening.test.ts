/**
 * What the deployment leaves behind and who can see it: an imported seal chain never outlives its key, signing links
 * never reach an access log, names that are global to the account carry the region, ARNs carry the partition, and SMS
 * publishing reaches phone numbers only.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultParameter } from '#infra/seal-cert.ts';
import { RESERVABLE } from '#infra/stacks/functions.ts';
import { allTemplates, manifestFunctions, resolverFor, resourcesOfType, synthesize, TEST_PSEUDO, type Json, type Statement, type Synthesized } from '#test/support/templates.ts';

let synthesized: Synthesized;
beforeAll(() => { synthesized = synthesize(); });

const text = (value: unknown) => JSON.stringify(value);
const REGION = { Ref: 'AWS::Region' };

describe('the imported seal certificate chain', () => {
  it('is read from a parameter named after the seal key, so a chain imported for a key since replaced is never read', () => {
    const seal = manifestFunctions(synthesized).find((f) => f.handler === RESERVABLE.seal)!;
    const resolve = resolverFor(seal.template, (key) => `{{${key}}}`, { ...TEST_PSEUDO, partition: 'aws-cn' });
    expect(resolve(seal.env.SEAL_CERTIFICATE_PARAMETER)).toBe('/Esign/seal-certificate-chain/{{sealKeyId}}');
    const reads = seal.statements.filter((s) => [s.Action].flat().includes('ssm:GetParameter'));
    expect(reads.map((s) => resolve(s.Resource))).toEqual(['arn:aws-cn:ssm:us-east-1:000000000000:parameter/Esign/seal-certificate-chain/{{sealKeyId}}']);
    const data = synthesized.templates.data;
    const sealKey = resourcesOfType(data, 'AWS::KMS::Key').find(([, k]) => k.Properties.KeyUsage === 'SIGN_VERIFY')![0];
    data.hasResourceProperties('AWS::SSM::Parameter', { Name: '/Esign/seal-key-id', Value: { Ref: sealKey } });
    const outputs = (data.toJSON() as { Outputs: Record<string, { Value: unknown }> }).Outputs;
    expect(text(outputs.SealCertificateChainParameter?.Value)).toBe(text({ 'Fn::Join': ['', ['/Esign/seal-certificate-chain/', { Ref: sealKey }]] }));
  });

  it('the public trust-anchor route reads that parameter and nothing of the key: it cannot sign and has no key id', () => {
    const roots = manifestFunctions(synthesized).find((f) => f.handler === 'functions/api/verify-roots.ts')!;
    const resolve = resolverFor(roots.template, (key) => `{{${key}}}`, { ...TEST_PSEUDO, partition: 'aws-cn' });
    const reads = roots.statements.filter((s) => [s.Action].flat().includes('ssm:GetParameter'));
    expect(reads.map((s) => resolve(s.Resource))).toEqual(['arn:aws-cn:ssm:us-east-1:000000000000:parameter/Esign/seal-certificate-chain/{{sealKeyId}}']);
    expect(roots.statements.flatMap((s) => [s.Action].flat()).filter((a) => a === 'kms:Sign' || a === 'kms:GetPublicKey')).toEqual([]);
    expect(roots.env.SEAL_KEY_ID).toBeUndefined();
    expect(roots.env.SEAL_CERTIFICATE_CHAIN_PEM).toBeDefined();
  });

  it('npm run seal-cert -- import stores it under the same name, from the key\'s ARN or id', () => {
    expect(defaultParameter('arn:aws:kms:eu-west-1:111111111111:key/1234abcd-12ab-34cd-56ef-1234567890ab')).toBe('/Esign/seal-certificate-chain/1234abcd-12ab-34cd-56ef-1234567890ab');
    expect(defaultParameter('1234abcd')).toBe('/Esign/seal-certificate-chain/1234abcd');
  });
});

describe('signing and download tokens stay out of access logs', () => {
  it('the signing host writes no CloudFront access logs: every behaviour (the pages at /sign/<token>, the signer API) sees tokens in its paths', () => {
    const distributions = resourcesOfType(synthesized.templates.web, 'AWS::CloudFront::Distribution');
    expect(distributions).toHaveLength(1);
    const config = distributions[0]![1].Properties.DistributionConfig as Json;
    expect(config.Logging).toBeUndefined();
    for (const behavior of [config.DefaultCacheBehavior, ...(config.CacheBehaviors as Json[])] as Json[]) expect(behavior.RealtimeLogConfigArn).toBeUndefined();
    for (const [name, template] of allTemplates(synthesized)) {
      for (const type of ['AWS::CloudFront::RealtimeLogConfig', 'AWS::Logs::DeliverySource']) expect(resourcesOfType(template, type), `${name}: ${type}`).toEqual([]);
    }
  });
});

describe('names and ARNs', () => {
  it('names CloudFront policies, functions and access controls, and the dashboard, with the region: they are global to the account', () => {
    const named: [string, string][] = [
      ['AWS::CloudFront::ResponseHeadersPolicy', 'ResponseHeadersPolicyConfig'], ['AWS::CloudFront::OriginRequestPolicy', 'OriginRequestPolicyConfig'],
      ['AWS::CloudFront::OriginAccessControl', 'OriginAccessControlConfig'], ['AWS::CloudFront::Function', ''],
    ];
    for (const [type, config] of named) {
      const found = resourcesOfType(synthesized.templates.web, type);
      expect(found.length, type).toBeGreaterThan(0);
      for (const [id, resource] of found) {
        const name = config ? (resource.Properties[config] as Json).Name : resource.Properties.Name;
        expect(text(name), id).toContain(text(REGION));
      }
    }
    for (const [id, dashboard] of resourcesOfType(synthesized.templates.api, 'AWS::CloudWatch::Dashboard')) expect(text(dashboard.Properties.DashboardName), id).toContain(text(REGION));
  });

  it('writes no ARN with a fixed partition (the state machines\' ASL aside, which the local runner reads as it is)', () => {
    for (const [name, template] of allTemplates(synthesized)) {
      const json = template.toJSON() as { Resources: Record<string, { Type: string; Properties?: Json }> };
      const resources = Object.values(json.Resources).filter((r) => r.Type !== 'AWS::StepFunctions::StateMachine');
      expect(text(resources), name).not.toMatch(/"arn:aws:/);
    }
  });

  it('SMS: sns:Publish is allowed on * (a phone number has no ARN) and denied on every topic and endpoint ARN of the partition', () => {
    const smsFunctions = manifestFunctions(synthesized).filter((f) => f.statements.some((s) => [s.Action].flat().includes('sns:Publish')));
    expect(smsFunctions.length).toBeGreaterThan(0);
    for (const f of smsFunctions) {
      const sns = f.statements.filter((s) => [s.Action].flat().includes('sns:Publish'));
      // The allow on * shares its statement with X-Ray's two actions and SES's quota read, which take no resource either.
      expect(sns.map((s: Statement) => [s.Effect, [s.Action].flat().filter((a) => !a.startsWith('xray:') && a !== 'ses:GetAccount'), s.Resource]), f.description).toEqual([
        ['Allow', ['sns:Publish'], '*'],
        ['Deny', ['sns:Publish'], { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':sns:*:*:*']] }],
      ]);
    }
  });
});
