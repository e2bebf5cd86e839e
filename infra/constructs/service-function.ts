/**
 * The one function construct: every route, worker and workflow task is a ServiceFunction with the project's
 * defaults (Node 22 on ARM64, ESM bundle with source maps, its own log group and role). It starts with no
 * permissions and placeholder configuration; the bind helpers (bind.ts) add each resource it uses.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { Role, ServicePrincipal, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Architecture, Runtime } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat, type ICommandHooks } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { acknowledge } from './nag.ts';

export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * esbuild settings shared by the construct and the bundle-size test. ESM keeps `import.meta.url` meaningful
 * (shared/pdf/text/catalog.ts resolves its font files from it); the banner gives CommonJS dependencies a `require`.
 * The AWS SDK v3 is provided by the Lambda runtime and stays out of the bundles.
 */
export const ESBUILD = {
  format: 'esm',
  platform: 'node',
  target: 'node22',
  minify: true,
  mainFields: ['module', 'main'],
  external: ['@aws-sdk/*'],
  banner: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
} as const;

/** Unfilled configuration: shared/config.ts requires every variable, so a function gets a visibly unusable value for what it has no access to. */
export const UNBOUND = 'unbound-in-this-function';
export const unboundSecret = (name: string) => `${UNBOUND}:${name}:no-access-granted`;

export interface ServiceFunctionProps {
  /** The handler module, relative to the repository root (a manifest row's `handler`); it exports `handler`. */
  entry: string;
  description: string;
  /**
   * For the service's own functions (they load shared/config.ts): BASE_URL (the API) and SIGNING_URL (the
   * signing host), and placeholders for everything else until a bind helper fills it.
   */
  service?: { baseUrl: string; signingUrl: string };
  logRetention: RetentionDays;
  memorySize?: number;
  timeout?: Duration;
  /** Font files to ship beside the bundle, under node_modules/ as the code resolves them. */
  fontFiles?: readonly string[];
}

export class ServiceFunction extends Construct {
  readonly fn: NodejsFunction;
  readonly role: Role;
  readonly logGroup: LogGroup;

  constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    super(scope, id);
    this.logGroup = new LogGroup(this, 'Logs', { retention: props.logRetention, removalPolicy: RemovalPolicy.DESTROY });
    this.role = new Role(this, 'Role', { assumedBy: new ServicePrincipal('lambda.amazonaws.com'), description: `${props.entry}: what it binds, nothing else` });
    this.role.addToPrincipalPolicy(new PolicyStatement({ actions: ['logs:CreateLogStream', 'logs:PutLogEvents'], resources: [this.logGroup.logGroupArn] }));
    this.fn = new NodejsFunction(this, 'Function', {
      entry: join(REPO_ROOT, props.entry),
      handler: 'handler',
      description: props.description,
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize ?? 512,
      timeout: props.timeout ?? Duration.seconds(15),
      role: this.role,
      logGroup: this.logGroup,
      projectRoot: REPO_ROOT,
      depsLockFilePath: join(REPO_ROOT, 'package-lock.json'),
      environment: { NODE_OPTIONS: '--enable-source-maps', ...(props.service ? serviceEnvironment(props.service) : {}) },
      bundling: {
        forceDockerBundling: false,
        format: OutputFormat.ESM,
        target: ESBUILD.target,
        minify: ESBUILD.minify,
        mainFields: [...ESBUILD.mainFields],
        externalModules: [...ESBUILD.external],
        banner: ESBUILD.banner,
        sourceMap: true,
        sourcesContent: false,
        ...(props.fontFiles?.length ? { commandHooks: copyFiles(props.fontFiles) } : {}),
      },
    });
    acknowledge(this.fn, 'L1', 'nodejs22.x is the runtime the service is built and tested for (ESM bundles targeting node22); moving to a newer one is this construct\'s runtime line once the suite passes on it');
  }

  addEnvironment(name: string, value: string): void {
    this.fn.addEnvironment(name, value);
  }

  addToRolePolicy(statement: PolicyStatement): void {
    this.role.addToPrincipalPolicy(statement);
  }
}

function serviceEnvironment(service: { baseUrl: string; signingUrl: string }): Record<string, string> {
  return {
    BASE_URL: service.baseUrl,
    SIGNING_URL: service.signingUrl,
    TABLE_NAME: UNBOUND,
    BUCKET_NAME: UNBOUND,
    JOBS_QUEUE_URL: UNBOUND,
    JWT_SECRET: unboundSecret('JWT_SECRET'),
    LINK_SECRET: unboundSecret('LINK_SECRET'),
    DATA_KEY: unboundSecret('DATA_KEY'),
  };
}

/** Copies node_modules files (and their packages' licence files) next to the bundle, where createRequire finds them. */
function copyFiles(files: readonly string[]): ICommandHooks {
  return {
    beforeBundling: () => [],
    beforeInstall: () => [],
    afterBundling: (inputDir, outputDir) => copyCommands(files, inputDir, outputDir),
  };
}

/** The shell commands of copyFiles (exported for the bundle test, which runs them on its own bundle). */
export function copyCommands(files: readonly string[], inputDir: string, outputDir: string): string[] {
  const packageOf = (file: string) => file.split('/').slice(0, file.startsWith('@') ? 2 : 1).join('/');
  const packages = [...new Set(files.map(packageOf))];
  return [
    ...files.map((file) => `mkdir -p "${outputDir}/node_modules/${posix.dirname(file)}" && cp "${inputDir}/node_modules/${file}" "${outputDir}/node_modules/${file}"`),
    // A WebAssembly module is loaded from beside the bundle (new URL('x.wasm', import.meta.url) in the bundled code).
    ...files.filter((file) => file.endsWith('.wasm')).map((file) => `cp "${inputDir}/node_modules/${file}" "${outputDir}/${posix.basename(file)}"`),
    ...packages.map((pkg) => `cp "${inputDir}/node_modules/${pkg}/package.json" "${inputDir}/node_modules/${pkg}"/LICENSE* "${outputDir}/node_modules/${pkg}/"`),
  ];
}

/** The font files (and the shaper's WebAssembly) the seal reads at run time, read from their sources so they cannot drift. */
export function sealFontFiles(): string[] {
  const source = ['catalog.ts', 'shaper.ts'].map((file) => readFileSync(join(REPO_ROOT, 'shared', 'pdf', 'text', file), 'utf8')).join('\n');
  const files = [...source.matchAll(/'((?:@[\w.-]+\/)?[\w.-]+\/[^'\s]+\.(?:ttf|wasm))'/g)].map((m) => m[1] ?? '');
  if (files.length === 0) throw new Error('No font files found in shared/pdf/text/catalog.ts: the seal bundle would lack its fonts');
  return [...new Set(files)];
}
