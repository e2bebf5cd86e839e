/**
 * The service's functions wired locally as Lambda wires them: each gets the environment CDK gives it
 * (infra/stacks/environment.ts, from its access row), and shared/deps.ts builds its deps from that environment,
 * reading its secrets and checking its configuration. Only the clients differ: pointed at the local engines, or
 * answered in process (engines/in-process.ts), and each call recorded under the function's name (aws-calls.ts).
 * One deps per function, so a call is attributable to the function whose role must grant it.
 */
import type { ApiDescription, Clock } from '#shared/ports/services.ts';
import { depsFromEnvironment, type AwsService, type AwsSettings, type ClientSettings, type Deps } from '#shared/deps.ts';
import { definitionOf } from '../infra/routes.ts';
import { functionEnvironment, manifestHandlers, type FunctionSettings, type ServiceResources } from '../infra/stacks/environment.ts';
import type { AwsCallLog } from './aws-calls.ts';
import { answering, type inProcessAnswers } from './engines/in-process.ts';

export interface LocalWiring {
  resources: ServiceResources;
  settings: FunctionSettings;
  /** Local-only configuration added to every function (LOCAL_MODE, shorter webhook timeouts in tests). */
  environment: Record<string, string>;
  clients: ClientSettings;
  answers: ReturnType<typeof inProcessAnswers>;
  calls: AwsCallLog;
  /** The service clock, which `POST /_local/clock` moves. */
  clock: Clock;
  /** The API description, built in memory (a Lambda reads the openapi.json its build wrote beside it). */
  apiDescription: ApiDescription;
}

/** How `handler`'s clients are built: local endpoints, its calls recorded, in-process services answered. */
function awsFor(handler: string, wiring: LocalWiring): AwsSettings {
  return {
    clients: wiring.clients,
    customize: (service: AwsService, stack) => {
      stack.add(wiring.calls.recorder(handler, service), { step: 'initialize', priority: 'high', name: 'esignRecordAwsCall' });
      const answer = wiring.answers[service];
      if (answer) stack.add(answering(answer), { step: 'initialize', priority: 'low', name: 'esignAnswerInProcess' });
    },
  };
}

/** The environment `handler` runs with locally: what CDK gives it, plus the local-only settings. */
export function localEnvironment(handler: string, wiring: LocalWiring): Record<string, string> {
  return { ...functionEnvironment(handler, wiring.resources, wiring.settings), ...wiring.environment };
}

/** Every manifest function's deps, each built from its own environment, by handler module. */
export async function functionDeps(wiring: LocalWiring): Promise<ReadonlyMap<string, Deps>> {
  const handlers = manifestHandlers();
  const deps = await Promise.all(handlers.map((handler) =>
    depsFromEnvironment(localEnvironment(handler, wiring), awsFor(handler, wiring), { clock: wiring.clock, apiDescription: wiring.apiDescription })));
  return new Map(deps.map((built, i) => [handlers[i] ?? '', built]));
}

/** A function module's `createHandler`, the factory Lambda's `handler` wraps (each module's own handler type). */
export function handlerFactory(handler: string): (deps: Deps) => unknown {
  return definitionOf(handler).createHandler;
}
