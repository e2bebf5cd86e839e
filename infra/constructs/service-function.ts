/**
 * The one function construct: every route, worker and workflow task is a ServiceFunction with the project's
 * defaults (Node 22 on ARM64, an ESM bundle with the AWS SDK inside and a source map, its own log group and role).
 * It starts with no permission and no configuration: infra/stacks/functions.ts gives a manifest function its
 * environment and grants from its access row.
 */
import { AssetHashType, DockerImage, Duration, RemovalPolicy, type ILocalBundling } from 'aws-cdk-lib';
import { Role, ServicePrincipal, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Architecture, Code, Function as LambdaFunction, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { bundleFunction, REPO_ROOT, type BundleOptions } from './bundling.ts';
import { acknowledge, acknowledgeWildcard } from './nag.ts';

export { REPO_ROOT } from './bundling.ts';

export interface ServiceFunctionProps {
  /** The handler module, relative to the repository root (a manifest row's `handler`); it exports `handler`. */
  entry: string;
  description: string;
  logRetention: RetentionDays;
  memorySize?: number;
  timeout?: Duration;
  /** Instances kept for this function alone (and its cap); none by default. */
  reservedConcurrency?: number;
  /** Bundling beyond the defaults: files shipped beside it, adapters left out (bundling.ts). */
  bundle?: BundleOptions;
}

/**
 * CDK's local bundling step, calling the project's bundler (bundling.ts). Its fields are part of the asset's cache key,
 * so each function gets its own bundle.
 */
class ProjectBundling implements ILocalBundling {
  constructor(readonly entry: string, readonly options: BundleOptions) {}

  tryBundle(outputDir: string): boolean {
    bundleFunction(this.entry, outputDir, this.options);
    return true;
  }
}

export class ServiceFunction extends Construct {
  readonly fn: LambdaFunction;
  readonly role: Role;
  readonly logGroup: LogGroup;

  constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    super(scope, id);
    this.logGroup = new LogGroup(this, 'Logs', { retention: props.logRetention, removalPolicy: RemovalPolicy.DESTROY });
    this.role = new Role(this, 'Role', { assumedBy: new ServicePrincipal('lambda.amazonaws.com'), description: `${props.entry}: what it binds, nothing else` });
    this.role.addToPrincipalPolicy(new PolicyStatement({ actions: ['logs:CreateLogStream', 'logs:PutLogEvents'], resources: [this.logGroup.logGroupArn] }));
    this.fn = new LambdaFunction(this, 'Function', {
      code: Code.fromAsset(REPO_ROOT, {
        assetHashType: AssetHashType.OUTPUT,
        bundling: {
          local: new ProjectBundling(props.entry, props.bundle ?? {}),
          // Never used: the local bundling above always succeeds or fails the synth.
          image: DockerImage.fromRegistry('public.ecr.aws/docker/library/node:22'),
        },
      }),
      handler: 'index.handler', // BUNDLE_FILE's `handler` export
      description: props.description,
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize ?? 512,
      timeout: props.timeout ?? Duration.seconds(15),
      ...(props.reservedConcurrency ? { reservedConcurrentExecutions: props.reservedConcurrency } : {}),
      role: this.role,
      logGroup: this.logGroup,
      environment: { NODE_OPTIONS: '--enable-source-maps' },
      // X-Ray at the function level only (sampled: the first request each second, 5 % of the rest): where the time goes
      // between cold start, handler and the service, at no cost to the code.
      tracing: Tracing.ACTIVE,
    });
    acknowledgeWildcard(this.role, '*', 'X-Ray PutTraceSegments and PutTelemetryRecords take no resource: the action is the whole grant (Lambda active tracing)');
    acknowledge(this.fn, 'L1', 'nodejs22.x is the runtime the service is built and tested for (ESM bundles targeting node22); moving to a newer one is this construct\'s runtime line once the suite passes on it');
  }

  addEnvironment(name: string, value: string): void {
    this.fn.addEnvironment(name, value);
  }

  addEnvironments(variables: Record<string, string>): void {
    for (const [name, value] of Object.entries(variables)) this.fn.addEnvironment(name, value);
  }

  addToRolePolicy(statement: PolicyStatement): void {
    this.role.addToPrincipalPolicy(statement);
  }
}
