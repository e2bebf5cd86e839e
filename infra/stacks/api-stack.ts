/** One function and one route per row of infra/routes.ts, on the HTTP API of the web stack. */
import { Duration, Stack, type StackProps } from 'aws-cdk-lib';
import { HttpApi, HttpMethod, HttpRoute, HttpRouteKey } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { API_INTEGRATION_TIMEOUT_SECONDS } from '#http/aws-limits.ts';
import { fallbackRoute, routes } from '#infra/routes.ts';
import { read, resourcesOf } from '../constructs/handoff.ts';
import { serviceDashboard } from '../constructs/dashboard.ts';
import { acknowledge } from '../constructs/nag.ts';
import type { ServiceFunction } from '../constructs/service-function.ts';
import { functionId, manifestFunction } from './functions.ts';
import { functionSettings, type ServiceSettings } from './settings.ts';

export interface ApiStackProps extends StackProps {
  settings: ServiceSettings;
  logRetention: RetentionDays;
}

export class ApiStack extends Stack {
  /** By handler module. */
  readonly functions: Record<string, ServiceFunction> = {};

  constructor(scope: Construct, id: string, props: ApiStackProps) {
    super(scope, id, props);
    const { prefix } = props.settings;
    const httpApi = HttpApi.fromHttpApiAttributes(this, 'HttpApi', { httpApiId: read(this, prefix, 'apiId') });
    const context = { resources: resourcesOf(this, prefix), settings: functionSettings(props.settings), logRetention: props.logRetention };
    for (const route of routes) {
      const fn = manifestFunction(this, route.handler, `${route.method} ${route.path}`, context);
      this.functions[route.handler] = fn;
      const name = functionId(route.handler);
      const httpRoute = new HttpRoute(this, `${name}Route`, {
        httpApi,
        routeKey: HttpRouteKey.with(route.path, HttpMethod[route.method]),
        // Explicit: left unset, the HTTP API waits 30 s, one more than the local runtime enforces.
        integration: new HttpLambdaIntegration(`${name}Integration`, fn.fn, { timeout: Duration.seconds(API_INTEGRATION_TIMEOUT_SECONDS) }),
      });
      acknowledge(httpRoute, 'APIG4', route.auth === 'none'
        ? `${route.path} is public by design (${route.operationId})`
        : `Authorized in the function: ${route.auth === 'bearer' ? 'HS256 bearer JWT and an active application' : 'the signing or download link token'} (shared/http), which a gateway JWT authorizer (JWKS, asymmetric keys) cannot verify`);
    }
    // Whatever no route takes: 404 or 405 in the error shape with the rate-limit headers (spec 8), not the gateway's bare 404.
    const noRoute = manifestFunction(this, fallbackRoute.handler, 'no route ($default)', context);
    this.functions[fallbackRoute.handler] = noRoute;
    const fallback = new HttpRoute(this, 'NoRouteRoute', {
      httpApi, routeKey: HttpRouteKey.DEFAULT, integration: new HttpLambdaIntegration('NoRouteIntegration', noRoute.fn, { timeout: Duration.seconds(API_INTEGRATION_TIMEOUT_SECONDS) }),
    });
    acknowledge(fallback, 'APIG4', 'The $default route only answers 404 or 405: nothing to authorize');
    serviceDashboard(this, 'Dashboard', { name: prefix, functions: Object.values(this.functions) });
  }
}
