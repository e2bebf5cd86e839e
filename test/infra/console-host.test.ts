/**
 * The sender console on the signing host: /app/* is the console's page with its own, stricter policy, and /v1/* reaches
 * the API with the viewer's Authorization header (after the signer paths, which keep theirs).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { consoleCsp, signingHostCsp } from '#shared/http/signing-host-policy.ts';
import { AUTHORING_PATHS, CONSOLE_PATHS, SIGNING_PATHS } from '#infra/stacks/web-stack.ts';
import { resourcesOfType, synthesize, type Json, type Synthesized } from '#test/support/templates.ts';

let synthesized: Synthesized;
beforeAll(() => { synthesized = synthesize(); }, 120_000);

const text = (value: unknown) => JSON.stringify(value);

describe('the console on the signing host', () => {
  it('serves /app/* from the pages bucket with the console policy, and /v1/* from the API after the signer paths', () => {
    const web = synthesized.templates.web;
    const distribution = resourcesOfType(web, 'AWS::CloudFront::Distribution')[0]![1].Properties.DistributionConfig as Json;
    const behaviors = distribution.CacheBehaviors as Json[];
    const patterns = behaviors.map((b) => b.PathPattern);
    expect(patterns.indexOf('/v1/*')).toBeGreaterThan(Math.max(...[...SIGNING_PATHS, ...AUTHORING_PATHS].map((p) => patterns.indexOf(p))));
    const [pagePath, apiPath] = CONSOLE_PATHS;
    const page = behaviors.find((b) => b.PathPattern === pagePath) ?? {};
    const api = behaviors.find((b) => b.PathPattern === apiPath) ?? {};
    expect(page.FunctionAssociations).toHaveLength(1);
    expect(text(page.TargetOriginId)).not.toEqual(text(api.TargetOriginId));
    // The user's Authorization header reaches the API as the editor's does: through the same keyed, keep-nothing cache policy
    expect(api).toMatchObject({ ViewerProtocolPolicy: 'https-only', AllowedMethods: expect.arrayContaining(['POST', 'PUT', 'DELETE']) });
    const editor = behaviors.find((b) => b.PathPattern === AUTHORING_PATHS[0]) ?? {};
    expect(text(api.CachePolicyId)).toEqual(text(editor.CachePolicyId));
    const policies = resourcesOfType(web, 'AWS::CloudFront::ResponseHeadersPolicy').map(([, r]) => text(r.Properties));
    const consolePolicy = policies.find((p) => p.includes('cognito-idp')) ?? '';
    expect(consolePolicy).toContain("frame-ancestors 'none'");
    expect(consolePolicy).not.toContain('unsafe');
  });

  it('the console policy allows no inline style or script and names the identity provider; the signing pages keep theirs', () => {
    const policy = consoleCsp('https://docs.example', ['https://idp.example']);
    expect(policy).toContain("script-src 'self';");
    expect(policy).toContain("style-src 'self';");
    expect(policy).toContain("connect-src 'self' https://docs.example https://idp.example");
    expect(policy).not.toContain('unsafe');
    expect(signingHostCsp('https://docs.example')).not.toContain('idp.example');
  });
});
