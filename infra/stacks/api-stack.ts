/** One function and one route per row of infra/routes.ts, on the HTTP API of the web stack. */
import { Stack, type StackProps } from 'aws-cdk-lib';
import { HttpMethod, HttpRoute, HttpRouteKey, type IHttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { Construct } from 'constructs';
import { routes } from '#infra/routes.ts';
import { acknowledge } from '../constructs/nag.ts';
import type { ServiceFunction } from '../constructs/service-function.ts';
import { functionId, manifestFunction, type FunctionContext } from './functions.ts';

export interface ApiStackProps extends StackProps {
  httpApi: IHttpApi;
  context: FunctionContext;
}

export class ApiStack extends Stack {
  /** By handler module. */
  readonly functions: Record<string, ServiceFunction> = {};

  constructor(scope: Construct, id: string, props: ApiStackProps) {
    super(scope, id, props);
    const context = { ...props.context, environment: { RATE_LIMITS: props.context.settings.rateLimits }, routes: true };
    for (const route of routes) {
      const fn = manifestFunction(this, route.handler, `${route.method} ${route.path}`, context);
      this.functions[route.handler] = fn;
      const name = functionId(route.handler);
      const httpRoute = new HttpRoute(this, `${name}Route`, {
        httpApi: props.httpApi,
        routeKey: HttpRouteKey.with(route.path, HttpMethod[route.method]),
        integration: new HttpLambdaIntegration(`${name}Integration`, fn.fn),
      });
      acknowledge(httpRoute, 'APIG4', route.auth === 'none'
        ? `${route.path} is public by design (${route.operationId})`
        : `Authorized in the function: ${route.auth === 'bearer' ? 'HS256 bearer JWT and an active application' : 'the signing or download link token'} (shared/http), which a gateway JWT authorizer (JWKS, asymmetric keys) cannot verify`);
    }
  }
}
