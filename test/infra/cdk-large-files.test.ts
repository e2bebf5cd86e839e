/**
 * Large files on AWS (decision 18), read from the synthesized templates: the presigned POST is signed
 * with the upload-url function's own role, so that role may put objects under uploads/ (and use the bucket's key);
 * complete reads the staged file and deletes it; the downloads' presigned GETs need the read grant their role holds;
 * the sweep and a lifecycle rule clear staged uploads never completed; the seal task is sized for a 25 MB PDF.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { API_INTEGRATION_TIMEOUT_SECONDS, MAX_INLINE_BODY_BYTES } from '#shared/http/aws-limits.ts';
import { functionTimeoutSeconds } from '#infra/stacks/access.ts';
import { resolverFor, resourcesOfType, synthesize, type Json, type Synthesized, type SynthesizedFunction, manifestFunctions } from '#test/support/templates.ts';

let synthesized: Synthesized;
let functions: SynthesizedFunction[];

beforeAll(() => {
  synthesized = synthesize();
  functions = manifestFunctions(synthesized);
});

const fn = (description: string) => {
  const found = functions.find((f) => f.description === description);
  if (!found) throw new Error(`no function ${description}`);
  return found;
};
const resolve = (f: SynthesizedFunction, expression: unknown) => resolverFor(f.template, (key) => `{{${key}}}`)(expression);
/** The resources the function's role may use `action` on. */
const granted = (f: SynthesizedFunction, action: string) => f.statements
  .filter((s) => s.Effect === 'Allow' && [s.Action].flat().includes(action))
  .flatMap((s) => [s.Resource].flat().map((r) => resolve(f, r))).sort();

describe('CDK app: presigned uploads and downloads (decision 18)', () => {
  it('the upload-url function may put objects under uploads/ only, with the bucket key, and reads no document', () => {
    const f = fn('POST /v1/envelopes/{id}/document/upload-url');
    expect(granted(f, 's3:PutObject')).toEqual(['{{bucketArn}}/uploads/*']);
    expect(granted(f, 'kms:GenerateDataKey')).toEqual(['{{encryptionKeyArn}}']);
    expect(granted(f, 's3:GetObject')).toEqual([]);
    expect(granted(f, 's3:DeleteObject')).toEqual([]);
  });

  it('complete reads the staged upload, writes the checked original and deletes the staged file, with the raw upload\'s size', () => {
    const f = fn('POST /v1/envelopes/{id}/document/upload-url/{uploadId}/complete');
    expect(granted(f, 's3:GetObject')).toEqual(['{{bucketArn}}/uploads/*']);
    expect(granted(f, 's3:PutObject')).toEqual(['{{bucketArn}}/original/*']);
    expect(granted(f, 's3:DeleteObject')).toEqual(['{{bucketArn}}/original/*', '{{bucketArn}}/uploads/*']);
    expect(granted(f, 'kms:Decrypt')).toContain('{{encryptionKeyArn}}');
    const raw = fn('POST /v1/envelopes/{id}/document');
    expect({ memory: f.props.MemorySize, timeout: f.props.Timeout }).toEqual({ memory: raw.props.MemorySize, timeout: raw.props.Timeout });
  });

  it('every PDF download may read (and so presign) what it serves', () => {
    const downloads: [string, string[]][] = [
      ['GET /v1/envelopes/{id}/document', ['{{bucketArn}}/original/*', '{{bucketArn}}/sealed/*']],
      ['GET /v1/signing/{token}/document', ['{{bucketArn}}/original/*']],
      ['GET /v1/download/{token}/document', ['{{bucketArn}}/sealed/*']],
    ];
    for (const [description, prefixes] of downloads) {
      const f = fn(description);
      expect(granted(f, 's3:GetObject'), description).toEqual(prefixes);
      expect(granted(f, 'kms:Decrypt'), description).toContain('{{encryptionKeyArn}}');
    }
  });

  it('staged uploads never completed are deleted: by the blob sweep, and by a lifecycle rule as a backstop', () => {
    expect(granted(fn('worker: blob-sweep'), 's3:DeleteObject')).toContain('{{bucketArn}}/uploads/*');
    const buckets = resourcesOfType(synthesized.templates.data, 'AWS::S3::Bucket').filter(([, b]) => JSON.stringify(b.Properties.LifecycleConfiguration).includes('retention'));
    expect(buckets).toHaveLength(1);
    const rules = ((buckets[0]![1].Properties.LifecycleConfiguration as Json).Rules as Json[]);
    expect(rules).toContainEqual({ Id: 'expire-staged-uploads', Prefix: 'uploads/', Status: 'Enabled', ExpirationInDays: 2 });
  });

  it('a browser may use presigned URLs: the bucket allows them by CORS, the signing host\'s CSP lets the page fetch there', () => {
    const bucket = resourcesOfType(synthesized.templates.data, 'AWS::S3::Bucket').find(([, b]) => JSON.stringify(b.Properties.LifecycleConfiguration).includes('retention'))![1];
    expect(bucket.Properties.CorsConfiguration).toEqual({ CorsRules: [{ AllowedMethods: ['GET', 'HEAD', 'POST'], AllowedOrigins: ['*'], AllowedHeaders: ['*'], MaxAge: 3600 }] });
    const [, policy] = resourcesOfType(synthesized.templates.web, 'AWS::CloudFront::ResponseHeadersPolicy')[0]!;
    const csp = resolverFor(synthesized.templates.web, (key) => `{{${key}}}`)((((policy.Properties.ResponseHeadersPolicyConfig as Json).SecurityHeadersConfig as Json).ContentSecurityPolicy as Json).ContentSecurityPolicy);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toMatch(/connect-src 'self' https:\/\/\{\{bucketName\}\}\.s3\.us-east-1\.amazonaws\.com/);
  });

  it('the seal task is sized for a 25 MB PDF: 2 GB of memory, 5 minutes', () => {
    const f = fn('seal-envelope: Seal');
    expect(f.props.MemorySize).toBeGreaterThanOrEqual(2048);
    expect(f.props.Timeout).toBeGreaterThanOrEqual(300);
  });

  it('the limits the local runtime enforces are those deployed: each function\'s timeout, the integrations\' 29 s, the inline PDF limit', () => {
    for (const f of functions) {
      expect(f.props.Timeout, f.description).toBe(functionTimeoutSeconds(f.handler));
      if (/^[A-Z]+ \//.test(f.description)) expect(f.props.Timeout, f.description).toBeLessThanOrEqual(API_INTEGRATION_TIMEOUT_SECONDS);
      const inline = f.env.DIRECT_DOWNLOAD_MAX_BYTES;
      if (inline !== undefined) expect(Number(inline), f.description).toBeLessThanOrEqual(MAX_INLINE_BODY_BYTES);
    }
    const integrations = Object.values(synthesized.templates).flatMap((template) => resourcesOfType(template, 'AWS::ApiGatewayV2::Integration'));
    expect(integrations.length).toBeGreaterThan(40);
    for (const [id, integration] of integrations) expect(integration.Properties.TimeoutInMillis, id).toBe(API_INTEGRATION_TIMEOUT_SECONDS * 1000);
  });
});
