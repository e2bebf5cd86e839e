/** The API reference deployed with the signing host: the docs build, its upload beside the pages, its route. */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Template } from 'aws-cdk-lib/assertions';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { AwsSolutionsChecks } from 'cdk-nag';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDocsSite } from '#infra/docs-site.ts';
import { WebStack } from '#infra/stacks/web-stack.ts';
import { newApp, TEST_SETTINGS, type Json } from '#test/support/templates.ts';

describe('API reference on the signing host', () => {
  let root: string;
  let pages: string;
  let docs: string;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'esign-docs-'));
    pages = join(root, 'pages');
    docs = join(root, 'docs-dist');
    mkdirSync(pages); // the signing pages: one file is enough here
    writeFileSync(join(pages, 'index.html'), '<!doctype html><title>sign</title>');
    buildDocsSite(docs, 'https://api.example.com');
  });
  afterAll(() => { rmSync(root, { recursive: true, force: true }); });

  it('builds a self-contained page: Swagger UI from node_modules, the initializer as a file, the document beside it', () => {
    for (const file of ['index.html', 'docs.js', 'swagger-ui.css', 'swagger-ui-bundle.js', 'openapi.json']) expect(existsSync(join(docs, 'docs', file)), file).toBe(true);
    const html = readFileSync(join(docs, 'docs', 'index.html'), 'utf8');
    expect(html).not.toMatch(/https?:\/\/|<script>/); // no CDN, no inline script (the host's CSP allows neither)
    const document = JSON.parse(readFileSync(join(docs, 'docs', 'openapi.json'), 'utf8')) as { servers: { url: string }[]; webhooks: object };
    expect(document.servers).toEqual([{ url: 'https://api.example.com' }]);
    expect(Object.keys(document.webhooks)).toContain('envelope.completed');
  });

  it('deploys it with the pages in one deployment, and routes /docs/ to its index', () => {
    const app = newApp();
    const web = new WebStack(app, 'Web', { settings: { ...TEST_SETTINGS, webDistPath: pages, docsDistPath: docs }, logRetention: RetentionDays.ONE_MONTH });
    const template = Template.fromStack(web);
    const deployments = Object.values(template.findResources('Custom::CDKBucketDeployment')) as { Properties: Json }[];
    expect(deployments).toHaveLength(1);
    expect(deployments[0]?.Properties.SourceObjectKeys).toHaveLength(2);
    const functions = Object.values(template.findResources('AWS::CloudFront::Function')) as { Properties: { FunctionCode: string } }[];
    expect(functions.map((f) => f.Properties.FunctionCode).join('\n')).toContain("r.uri = '/docs/index.html'");
    expect(new AwsSolutionsChecks(app).validateScope(app).violations.map((v) => v.ruleName)).toEqual([]);
  });

  it('deploys the pages alone when the reference was not built', () => {
    const app = newApp();
    const web = new WebStack(app, 'Web', { settings: { ...TEST_SETTINGS, webDistPath: pages, docsDistPath: join(root, 'none') }, logRetention: RetentionDays.ONE_MONTH });
    const deployments = Object.values(Template.fromStack(web).findResources('Custom::CDKBucketDeployment')) as { Properties: Json }[];
    expect(deployments[0]?.Properties.SourceObjectKeys).toHaveLength(1);
  });
});
