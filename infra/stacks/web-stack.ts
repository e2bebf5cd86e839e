/**
 * The two front doors. The HTTP API gateway (stage, throttling, access logs) and the signing host (S3 + CloudFront)
 * live together because each needs the other's address: the distribution forwards `/v1/signing/*` and
 * `/v1/download/*` to the API, and every function's SIGNING_URL is the distribution's. In one stack there is no
 * cycle; the api stack then adds one function and one route per manifest row.
 *
 * No CORS: the signing pages call the API only on their own origin (through the distribution, and their CSP allows
 * no other), and the bearer API is for servers.
 */
import { existsSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { Aws, CfnOutput, Duration, RemovalPolicy, SecretValue, Stack, type StackProps } from 'aws-cdk-lib';
import { ORIGIN_VERIFY_HEADER } from '#shared/http/viewer.ts';
import { AUTHORING_API_PREFIXES, CONSOLE_API_PREFIX, CONSOLE_PAGE_PREFIX, FRAMED_PAGE_PREFIXES, SIGNING_HOST_API_PREFIXES, consoleCsp, signingHostCsp } from '#shared/http/signing-host-policy.ts';
import { HttpApi, HttpStage, LogGroupLogDestination } from 'aws-cdk-lib/aws-apigatewayv2';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import { AllowedMethods, CacheCookieBehavior, CacheHeaderBehavior, CachePolicy, CacheQueryStringBehavior, CfnOriginAccessControl, Distribution, Function as EdgeFunction, FunctionCode, FunctionEventType, FunctionRuntime, HeadersFrameOption, HeadersReferrerPolicy, HttpVersion, OriginProtocolPolicy, OriginRequestCookieBehavior, OriginRequestHeaderBehavior, OriginRequestPolicy, OriginRequestQueryStringBehavior, OriginSslPolicy, PriceClass, ResponseHeadersPolicy, SecurityPolicyProtocol, ViewerProtocolPolicy, type BehaviorOptions } from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin, S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, Source } from 'aws-cdk-lib/aws-s3-deployment';
import type { Construct } from 'constructs';
import { publish, read } from '../constructs/handoff.ts';
import { ConsoleSignIn } from '../constructs/console-sign-in.ts';
import { acknowledge, acknowledgeRoleWildcards } from '../constructs/nag.ts';
import { REPO_ROOT } from '../constructs/service-function.ts';
import type { ServiceSettings } from './settings.ts';

export interface WebStackProps extends StackProps {
  settings: ServiceSettings;
  logRetention: RetentionDays;
}

/** Signer-facing API paths, served on the signing host's own origin. */
export const SIGNING_PATHS = SIGNING_HOST_API_PREFIXES.map((prefix) => `${prefix}*`);
/** The API paths the editor calls with its session (a bearer token): CloudFront forwards `Authorization` on these. */
export const AUTHORING_PATHS = AUTHORING_API_PREFIXES.map((prefix) => `${prefix}*`);
export const FRAMED_PAGE_PATHS = FRAMED_PAGE_PREFIXES.map((prefix) => `${prefix}*`);
/** The sender console's page, then the rest of the API for its calls (after the paths above: CloudFront takes the first match). */
export const CONSOLE_PATHS = [`${CONSOLE_PAGE_PREFIX}*`, `${CONSOLE_API_PREFIX}*`];

export class WebStack extends Stack {
  readonly httpApi: HttpApi;
  /** BASE_URL: the API's own address. */
  readonly apiUrl: string;
  /** SIGNING_URL: the signing host (custom domain, else the distribution's domain). */
  readonly signingUrl: string;
  readonly distribution: Distribution;

  constructor(scope: Construct, id: string, props: WebStackProps) {
    super(scope, id, props);
    const { settings } = props;
    const customOrigin = settings.signingDomain ? `https://${settings.signingDomain}` : null;

    // Every route is public at the gateway: bearer JWTs and signing links are verified in the functions
    // (HS256 with a deployment secret, which a gateway JWT authorizer cannot check).
    this.httpApi = new HttpApi(this, 'Api', {
      apiName: `${settings.prefix}-api`,
      description: 'e-signature API (routes: infra/routes.ts)',
      createDefaultStage: false,
    });
    const accessLogs = new LogGroup(this, 'ApiAccessLogs', { retention: props.logRetention, removalPolicy: RemovalPolicy.DESTROY });
    new HttpStage(this, 'DefaultStage', {
      httpApi: this.httpApi,
      stageName: '$default',
      autoDeploy: true,
      throttle: settings.apiThrottle,
      accessLogSettings: { destination: new LogGroupLogDestination(accessLogs), format: accessLogFormat() },
    });
    this.apiUrl = this.httpApi.apiEndpoint;

    // CloudFront sends it to the API (x-origin-verify), so the functions can trust CloudFront-Viewer-Address.
    const originVerifySecretArn = read(this, settings.prefix, 'originVerifySecretArn');
    this.distribution = this.signingHost(settings, props.logRetention, originVerifySecretArn);
    this.signingUrl = customOrigin ?? `https://${this.distribution.distributionDomainName}`;
    const signIn = new ConsoleSignIn(this, 'ConsoleSignIn', { prefix: settings.prefix, signingUrl: this.signingUrl, settings: settings.signIn, logRetention: props.logRetention });
    publish(this, settings.prefix, {
      apiUrl: this.apiUrl, apiId: this.httpApi.apiId, signingUrl: this.signingUrl,
      userPoolId: signIn.userPool.userPoolId, consoleClientId: signIn.client.userPoolClientId, signInIssuer: signIn.issuer, signInLogoutUrl: signIn.logoutUrl,
    });

    new CfnOutput(this, 'ApiUrl', { value: this.apiUrl, description: 'BASE_URL: the API' });
    new CfnOutput(this, 'SigningUrl', { value: this.signingUrl, description: 'SIGNING_URL: the signing host' });
    new CfnOutput(this, 'UserPoolId', { value: signIn.userPool.userPoolId, description: "The console users' Cognito user pool" });
    new CfnOutput(this, 'ConsoleClientId', { value: signIn.client.userPoolClientId, description: "The console's app client (public, authorization code with PKCE)" });
    new CfnOutput(this, 'SignInUrl', { value: signIn.domain.baseUrl(), description: 'The hosted sign-in domain' });
    new CfnOutput(this, 'DistributionDomainName', { value: this.distribution.distributionDomainName, description: 'CNAME target for signingDomain' });
  }

  private signingHost(settings: ServiceSettings, logRetention: RetentionDays, originVerifySecretArn: string): Distribution {
    const logs = new Bucket(this, 'SiteLogs', {
      encryption: BucketEncryption.S3_MANAGED,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      // ACLs stay enabled: CloudFront's standard logs (off now) granted itself write on the bucket ACL of earlier
      // deployments, and S3 refuses to disable ACLs on a bucket whose ACL grants another account.
      objectOwnership: ObjectOwnership.BUCKET_OWNER_PREFERRED,
      lifecycleRules: [{ id: 'expire-logs', expiration: Duration.days(365) }],
      removalPolicy: RemovalPolicy.RETAIN,
    });
    acknowledge(logs, 'S1', 'This is the access-log bucket of the signing host\'s pages bucket; logging it into itself would loop');
    const site = new Bucket(this, 'Pages', {
      encryption: BucketEncryption.S3_MANAGED,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      enforceSSL: true,
      serverAccessLogsBucket: logs,
      serverAccessLogsPrefix: 'pages/',
      removalPolicy: RemovalPolicy.DESTROY, // holds only the build; the deployment below empties it on delete
    });

    // CloudFront policies and functions are global to the account: their names carry the stack and the region, so one
    // account can deploy the service in two regions.
    const globalName = (what: string) => `${this.stackName}-${what}-${Aws.REGION}`;
    const documentsOrigin = `https://${read(this, settings.prefix, 'bucketName')}.s3.${Aws.REGION}.${Aws.URL_SUFFIX}`;
    const headers = new ResponseHeadersPolicy(this, 'SecurityHeaders', {
      responseHeadersPolicyName: globalName('security-headers'),
      comment: 'Signing host security headers',
      securityHeadersBehavior: {
        // The same policy the local signing host sends (local/signing-host.ts), with the documents bucket's origin:
        // where the presigned URL of a large PDF points (the SDK's virtual-hosted, regional form).
        contentSecurityPolicy: { contentSecurityPolicy: signingHostCsp(documentsOrigin), override: true },
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: HeadersFrameOption.DENY, override: true },
        referrerPolicy: { referrerPolicy: HeadersReferrerPolicy.NO_REFERRER, override: true },
        strictTransportSecurity: { accessControlMaxAge: Duration.days(730), includeSubdomains: true, override: true },
      },
    });
    // SPA fallback for the page routes only (/sign/<token>, /download/<token>): a distribution-wide 404 -> index.html
    // would also rewrite the API's own 404s on the signing paths.
    const pageRoutes = new EdgeFunction(this, 'PageRoutes', {
      runtime: FunctionRuntime.JS_2_0,
      comment: 'Serves the API reference at /docs/, and index.html for page routes (paths without a file extension)',
      code: FunctionCode.fromInline(
        "function handler(event) { var r = event.request; if (r.uri === '/app') { return { statusCode: 302, statusDescription: 'Found', headers: { location: { value: '/app/' } } }; } " +
        "if (/^\\/docs\\/?$/.test(r.uri)) { r.uri = '/docs/index.html'; } " +
        "else if (!/\\.[A-Za-z0-9]+$/.test(r.uri)) { r.uri = '/index.html'; } return r; }",
      ),
    });
    // The viewer's address (for the audit trail and per-IP limits) and what the API reads; never Host (API Gateway's own).
    const viewerAddressPolicy = new OriginRequestPolicy(this, 'SignerApiRequests', {
      originRequestPolicyName: globalName('signer-api-requests'),
      comment: 'Signer API: viewer address, user agent and the request headers the API reads',
      headerBehavior: OriginRequestHeaderBehavior.allowList('CloudFront-Viewer-Address', 'User-Agent', 'Content-Type', 'Idempotency-Key', 'Accept', 'Origin', 'Referer'),
      queryStringBehavior: OriginRequestQueryStringBehavior.all(),
      cookieBehavior: OriginRequestCookieBehavior.none(),
    });
    const api: BehaviorOptions = {
      origin: new HttpOrigin(`${this.httpApi.apiId}.execute-api.${Aws.REGION}.${Aws.URL_SUFFIX}`, {
        protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY,
        originSslProtocols: [OriginSslPolicy.TLS_V1_2],
        customHeaders: { [ORIGIN_VERIFY_HEADER]: SecretValue.secretsManager(originVerifySecretArn).unsafeUnwrap() },
      }),
      viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
      allowedMethods: AllowedMethods.ALLOW_ALL,
      cachePolicy: CachePolicy.CACHING_DISABLED,
      originRequestPolicy: viewerAddressPolicy,
      responseHeadersPolicy: headers,
    };
    // Embedded signing pages (decision 36) carry their own frame-ancestors (the application's embedOrigins): this
    // policy leaves the function's Content-Security-Policy as it is and sends no X-Frame-Options (it cannot name origins).
    const embedHeaders = new ResponseHeadersPolicy(this, 'EmbeddedPageHeaders', {
      responseHeadersPolicyName: globalName('embedded-page-headers'),
      comment: 'Embedded signing page: the function sets frame-ancestors',
      securityHeadersBehavior: {
        contentTypeOptions: { override: true },
        referrerPolicy: { referrerPolicy: HeadersReferrerPolicy.NO_REFERRER, override: true },
        strictTransportSecurity: { accessControlMaxAge: Duration.days(730), includeSubdomains: true, override: true },
      },
    });
    const embeddedPage: BehaviorOptions = { ...api, allowedMethods: AllowedMethods.ALLOW_GET_HEAD, responseHeadersPolicy: embedHeaders };
    // The editor's API calls carry its session as a bearer token. CloudFront forwards `Authorization` only as part of
    // the cache key, so this policy keys on it and keeps nothing (a minimum and default of 0: the API sends no max-age).
    const authorized = new CachePolicy(this, 'AuthorizedApiRequests', {
      cachePolicyName: globalName('authorized-api-requests'),
      comment: 'Editor API calls: Authorization and the query string forwarded, nothing kept',
      minTtl: Duration.seconds(0), defaultTtl: Duration.seconds(0), maxTtl: Duration.seconds(1),
      headerBehavior: CacheHeaderBehavior.allowList('Authorization'),
      queryStringBehavior: CacheQueryStringBehavior.all(),
      cookieBehavior: CacheCookieBehavior.none(),
    });
    const authoringApi: BehaviorOptions = { ...api, cachePolicy: authorized };
    const consolePages = this.consoleBehaviors(site, authoringApi, documentsOrigin, globalName);
    const distribution = new Distribution(this, 'SigningHost', {
      comment: `${settings.prefix} signing host`,
      defaultRootObject: 'index.html',
      defaultBehavior: {
        origin: S3BucketOrigin.withOriginAccessControl(site),
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        cachePolicy: CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy: headers,
        functionAssociations: [{ function: pageRoutes, eventType: FunctionEventType.VIEWER_REQUEST }],
      },
      additionalBehaviors: {
        ...Object.fromEntries(SIGNING_PATHS.map((path) => [path, api])),
        ...Object.fromEntries(AUTHORING_PATHS.map((path) => [path, authoringApi])),
        ...Object.fromEntries(FRAMED_PAGE_PATHS.map((path) => [path, embeddedPage])),
        ...consolePages,
      },
      httpVersion: HttpVersion.HTTP2_AND_3,
      priceClass: PriceClass.PRICE_CLASS_100,
      // No CloudFront access logs: every behaviour sees signing and download tokens in its paths (the pages at
      // /sign/<token>, the API under /v1/signing/<token>/...), and standard logs cannot leave the path out per behaviour
      // (field selection needs logging v2, configured from us-east-1 only). The API's access logs record the route, not
      // the path; the pages bucket's access logs see /index.html, which the page-route function serves for any token.
      enableLogging: false,
      ...(settings.signingDomain && settings.certificateArn
        ? {
          domainNames: [settings.signingDomain],
          certificate: Certificate.fromCertificateArn(this, 'Certificate', settings.certificateArn),
          minimumProtocolVersion: SecurityPolicyProtocol.TLS_V1_2_2021,
        }
        : {}),
    });
    if (!settings.signingDomain) {
      acknowledge(distribution, 'CFR4', 'No signingDomain configured: the default *.cloudfront.net certificate cannot be limited to TLS 1.2; with signingDomain and certificateArn the distribution requires TLSv1.2_2021');
    }
    acknowledge(distribution, 'CFR3', 'No CloudFront access logs: the signing and download links carry their token in the path on every behaviour; the API\'s access logs (route keys, not paths) and the pages bucket\'s access logs record the traffic without tokens');
    // The origin access control is named by the origin; it is global too.
    for (const oac of distribution.node.findAll().filter((c): c is CfnOriginAccessControl => c instanceof CfnOriginAccessControl)) {
      oac.addPropertyOverride('OriginAccessControlConfig.Name', globalName('pages-oac'));
    }
    acknowledge(distribution, 'CFR1', 'Signers are wherever the sender\'s recipients are: no geographic restriction');
    acknowledge(distribution, 'CFR2', 'No WAF by default (a web ACL costs a monthly fee); the API is throttled at the gateway and per token in the functions. Attach one in front of the distribution as needed');

    this.deployPages(site, distribution, settings.webDistPath, settings.docsDistPath, logRetention);
    return distribution;
  }

  /**
   * The sender console: /app/* is its one page (index.html under app/ for every path without a file extension) with
   * the console's stricter policy, which lets it reach the Cognito user pool (token endpoint, discovery); /v1/* forwards
   * its calls to the API with the user's Authorization header, as the editor's paths do (`authorizedApi`).
   */
  private consoleBehaviors(site: Bucket, authorizedApi: BehaviorOptions, documentsOrigin: string, globalName: (what: string) => string): Record<string, BehaviorOptions> {
    const identity = [`https://cognito-idp.${Aws.REGION}.${Aws.URL_SUFFIX}`, `https://*.auth.${Aws.REGION}.amazoncognito.com`];
    const consoleHeaders = new ResponseHeadersPolicy(this, 'ConsoleHeaders', {
      responseHeadersPolicyName: globalName('console-headers'),
      comment: 'Sender console security headers',
      securityHeadersBehavior: {
        contentSecurityPolicy: { contentSecurityPolicy: consoleCsp(documentsOrigin, identity), override: true },
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: HeadersFrameOption.DENY, override: true },
        referrerPolicy: { referrerPolicy: HeadersReferrerPolicy.NO_REFERRER, override: true },
        strictTransportSecurity: { accessControlMaxAge: Duration.days(730), includeSubdomains: true, override: true },
      },
    });
    const consoleRoutes = new EdgeFunction(this, 'ConsoleRoutes', {
      runtime: FunctionRuntime.JS_2_0,
      comment: 'Serves the console page (app/index.html) for its routes (paths without a file extension)',
      code: FunctionCode.fromInline("function handler(event) { var r = event.request; if (!/\\.[A-Za-z0-9]+$/.test(r.uri)) { r.uri = '/app/index.html'; } return r; }"),
    });
    const page: BehaviorOptions = {
      origin: S3BucketOrigin.withOriginAccessControl(site),
      viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
      cachePolicy: CachePolicy.CACHING_DISABLED,
      responseHeadersPolicy: consoleHeaders,
      functionAssociations: [{ function: consoleRoutes, eventType: FunctionEventType.VIEWER_REQUEST }],
    };
    const [pagePath = '', apiPath = ''] = CONSOLE_PATHS;
    return { [pagePath]: page, [apiPath]: authorizedApi };
  }

  /**
   * The built pages, when they exist at synth time (otherwise the bucket stays empty until a later deploy), and with
   * them the API reference (`docs/` of the docs build) when that was built.
   */
  private deployPages(site: Bucket, distribution: Distribution, webDistPath: string, docsDistPath: string, logRetention: RetentionDays): void {
    const absolute = (path: string) => (isAbsolute(path) ? path : join(REPO_ROOT, path));
    const path = absolute(webDistPath);
    if (!existsSync(join(path, 'index.html'))) return;
    const docs = absolute(docsDistPath);
    const sources = [Source.asset(path), ...(existsSync(join(docs, 'docs', 'index.html')) ? [Source.asset(docs)] : [])];
    const role = new Role(this, 'PagesDeploymentRole', { assumedBy: new ServicePrincipal('lambda.amazonaws.com') });
    const logs = new LogGroup(this, 'PagesDeploymentLogs', { retention: logRetention, removalPolicy: RemovalPolicy.DESTROY });
    role.addToPrincipalPolicy(new PolicyStatement({ actions: ['logs:CreateLogStream', 'logs:PutLogEvents'], resources: [logs.logGroupArn] }));
    new BucketDeployment(this, 'DeployPages', {
      sources,
      destinationBucket: site,
      distribution,
      distributionPaths: ['/*'],
      retainOnDelete: false,
      memoryLimit: 512,
      role,
      logGroup: logs,
    });
    acknowledgeRoleWildcards(role, 'CDK BucketDeployment: copies the built pages from the CDK asset bucket into the pages bucket and invalidates the distribution; the grants are the construct\'s own, on those two buckets');
    // The deployment's function is a singleton at stack level.
    for (const child of this.node.children.filter((c) => c.node.id.startsWith('Custom::CDKBucketDeployment'))) {
      acknowledge(child, 'L1', 'CDK BucketDeployment function: its runtime (with the AWS CLI layer) is chosen by aws-cdk-lib');
    }
  }
}

/** JSON access log lines; the route key, not the path, so signing-link tokens stay out of the logs. */
function accessLogFormat(): AccessLogFormat {
  return AccessLogFormat.custom(JSON.stringify({
    requestId: '$context.requestId',
    time: '$context.requestTime',
    ip: '$context.identity.sourceIp',
    userAgent: '$context.identity.userAgent',
    route: '$context.routeKey',
    status: '$context.status',
    protocol: '$context.protocol',
    responseLength: '$context.responseLength',
    latencyMs: '$context.responseLatency',
    integrationLatencyMs: '$context.integrationLatency',
    integrationError: '$context.integrationErrorMessage',
  }));
}
