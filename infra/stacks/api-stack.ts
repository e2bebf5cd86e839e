/**
 * One function and one route per row of infra/routes.ts, on the HTTP API of the web stack: one API, one URL.
 *
 * CloudFormation takes at most 500 resources a stack, and each route costs seven (function, role, policy, log group,
 * invoke permission, integration, route). So the functions live in one nested stack per route tag (routes.ts), each
 * with its invoke permissions and alarm parts, and this stack keeps the routes and their integrations, two resources a
 * route. The routes stay here, under the ids they always had: moving a route to another stack would create it there
 * before deleting it here, and API Gateway refuses a second route with the same key.
 */
import { Aws, Duration, NestedStack, Stack, type StackProps } from 'aws-cdk-lib';
import { HttpApi, HttpMethod, HttpRoute, HttpRouteKey, type HttpRouteIntegrationBindOptions, type IHttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { Alarm } from 'aws-cdk-lib/aws-cloudwatch';
import { ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { API_INTEGRATION_TIMEOUT_SECONDS } from '#shared/http/aws-limits.ts';
import type { Tag } from '#shared/http/declaration.ts';
import { fallbackRoute, routes, type RouteDef } from '#infra/routes.ts';
import { groupParts, notifyGroup, thresholdAlarm } from '../constructs/alarms.ts';
import { read, resourcesOf, signInOf } from '../constructs/handoff.ts';
import { serviceDashboard } from '../constructs/dashboard.ts';
import { acknowledge } from '../constructs/nag.ts';
import type { ServiceFunction } from '../constructs/service-function.ts';
import { functionId, manifestFunction, reservationsOf, type FunctionContext } from './functions.ts';
import { functionSettings, type ServiceSettings } from './settings.ts';

export interface ApiStackProps extends StackProps {
  settings: ServiceSettings;
  logRetention: RetentionDays;
}

/** Explicit: left unset, the HTTP API waits 30 s, one more than the local runtime enforces. */
const INTEGRATION = { timeout: Duration.seconds(API_INTEGRATION_TIMEOUT_SECONDS) };

/** The fallback route's function goes with the Meta routes. */
const FALLBACK_TAG: Tag = 'Meta';

/** The route's Lambda integration without the invoke permission, which the function's own (nested) stack grants. */
class RouteIntegration extends HttpLambdaIntegration {
  protected override completeBind(_options: HttpRouteIntegrationBindOptions): void {
    // Granted beside the function (RouteFunctions.permit): kept here it would cost this stack a resource per route.
  }
}

/** The functions of one route tag, their invoke permissions and their alarm parts. */
export class RouteFunctions extends NestedStack {
  readonly functions: Record<string, ServiceFunction> = {};
  private readonly apiId: string;
  private readonly context: FunctionContext;

  constructor(scope: Construct, id: string, props: ApiStackProps) {
    super(scope, id, { description: `e-signature service: the functions of the ${id.replace(/^Routes/, '')} routes` });
    const { settings } = props;
    // Read here, so each nested stack resolves the handed-off values itself (no parameter passed down from the parent).
    this.context = { resources: resourcesOf(this, settings.prefix), settings: functionSettings(settings, read(this, settings.prefix, 'sealKeyId'), signInOf(this, settings.prefix)), logRetention: props.logRetention, reserved: reservationsOf(settings) };
    this.apiId = read(this, settings.prefix, 'apiId');
  }

  add(handler: string, description: string, path: string | undefined): ServiceFunction {
    const fn = manifestFunction(this, handler, description, this.context);
    this.functions[handler] = fn;
    // As HttpLambdaIntegration would grant it: API Gateway may invoke the function for this route's path.
    fn.fn.addPermission(`${functionId(handler)}ApiInvoke`, {
      principal: new ServicePrincipal('apigateway.amazonaws.com'),
      sourceArn: Stack.of(this).formatArn({ service: 'execute-api', resource: this.apiId, resourceName: `*/*${path ?? ''}` }),
    });
    return fn;
  }
}

export class ApiStack extends Stack {
  /** By handler module. */
  readonly functions: Record<string, ServiceFunction> = {};
  /** The nested stack of each route tag's functions. */
  readonly groups: Partial<Record<Tag, RouteFunctions>> = {};

  constructor(scope: Construct, id: string, props: ApiStackProps) {
    super(scope, id, props);
    const { prefix } = props.settings;
    const httpApi = HttpApi.fromHttpApiAttributes(this, 'HttpApi', { httpApiId: read(this, prefix, 'apiId') });
    const groupOf = (tag: Tag) => (this.groups[tag] ??= new RouteFunctions(this, `Routes${tag}`, props));
    for (const route of routes) this.route(httpApi, groupOf(route.tag), route);
    // Whatever no route takes: 404 or 405 in the error shape with the rate-limit headers (decision 31), not the gateway's bare 404.
    const noRoute = groupOf(FALLBACK_TAG).add(fallbackRoute.handler, 'no route ($default)', undefined);
    this.functions[fallbackRoute.handler] = noRoute;
    const fallback = new HttpRoute(this, 'NoRouteRoute', {
      httpApi, routeKey: HttpRouteKey.DEFAULT, integration: new RouteIntegration('NoRouteIntegration', noRoute.fn, INTEGRATION),
    });
    acknowledge(fallback, 'APIG4', 'The $default route only answers 404 or 405: nothing to authorize');
    this.alarms(httpApi, prefix);
    serviceDashboard(this, 'Dashboard', { name: prefix, dashboardName: `${prefix}-${Aws.REGION}`, functions: Object.values(this.functions) });
  }

  private route(httpApi: IHttpApi, group: RouteFunctions, route: RouteDef): void {
    const name = functionId(route.handler);
    const fn = group.add(route.handler, `${route.method} ${route.path}`, route.path);
    this.functions[route.handler] = fn;
    const httpRoute = new HttpRoute(this, `${name}Route`, {
      httpApi,
      routeKey: HttpRouteKey.with(route.path, HttpMethod[route.method]),
      integration: new RouteIntegration(`${name}Integration`, fn.fn, INTEGRATION),
    });
    acknowledge(httpRoute, 'APIG4', route.auth === 'none'
      ? `${route.path} is public by design (${route.operationId})`
      : `Authorized in the function: ${route.auth === 'bearer' ? 'HS256 bearer JWT and an active application' : 'the signing or download link token'} (shared/http), which a gateway JWT authorizer (JWKS, asymmetric keys) cannot verify`);
  }

  /** The gateway's server errors and latency; the route functions' errors and throttles, one alarm each for them all. */
  private alarms(httpApi: IHttpApi, prefix: string): void {
    const action = new SnsAction(Topic.fromTopicArn(this, 'AlarmTopic', read(this, prefix, 'alarmTopicArn')));
    thresholdAlarm(this, 'Api5xx', action, {
      metric: httpApi.metricServerError({ statistic: 'Sum', period: Duration.minutes(5) }),
      threshold: 5,
      description: 'The API answered 5xx five times or more in 5 minutes: a function failed, timed out or was throttled (see the route functions\' alarms and the API access logs)',
    });
    thresholdAlarm(this, 'ApiLatencyP99', action, {
      metric: httpApi.metricLatency({ statistic: 'p99', period: Duration.minutes(5) }),
      threshold: 5000,
      evaluationPeriods: 3,
      description: 'The API\'s p99 latency has been 5 s or more for 15 minutes: look for slow functions (X-Ray) or a throttled table',
    });
    const parts = { Errors: [] as Alarm[], Throttles: [] as Alarm[] };
    for (const group of Object.values(this.groups)) {
      const fns = Object.values(group.functions).map((f) => f.fn);
      parts.Errors.push(...groupParts(group, 'RouteFunctions', fns, 'Errors', 'API route functions failed'));
      parts.Throttles.push(...groupParts(group, 'RouteFunctions', fns, 'Throttles', 'API route functions were throttled'));
    }
    notifyGroup(this, 'RouteFunctionErrors', parts.Errors, action,
      'API route functions failed (an unhandled error, a timeout or running out of memory): the callers got 5xx. Each function\'s Errors metric tells which, its logs why');
    notifyGroup(this, 'RouteFunctionThrottles', parts.Throttles, action,
      'API route functions were throttled: the account\'s Lambda concurrency is exhausted (a burst, or the jobs worker: lower jobsMaxConcurrency, or raise the limit)');
  }
}
