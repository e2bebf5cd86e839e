import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { StateMachine } from 'aws-local-stepfunctions';
import type { Deps } from '#shared/deps.ts';
import type { WorkflowDef } from '../routes.ts';

// aws-local-stepfunctions 3 uses Promise.withResolvers, which Node 20 lacks.
const promiseCtor = Promise as unknown as { withResolvers?: unknown };
promiseCtor.withResolvers ??= function withResolvers<T>() {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => { resolve = res; reject = rej; });
  return { promise, resolve, reject };
};

type TaskHandler = (input: unknown) => Promise<unknown>;
type JsonValue = Parameters<StateMachine['run']>[0];
type Definition = ConstructorParameters<typeof StateMachine>[0];

/** What the local runtime lends the runner: the service clock, and a count of tasks at work (for draining). */
export interface RunnerHooks {
  /** Resolves once the service clock reaches `iso` (Wait states are timed on the service clock locally). */
  until(iso: string): Promise<void>;
  busy(delta: 1 | -1): void;
}

/**
 * The same ASL file CDK deploys, run in process: `${...}` function ARNs substituted with placeholders and every
 * Task state mapped to its handler (with that function's own deps), which answers `{ Payload }` as the Lambda invoke integration does. Wait
 * states take no real time: a task whose input carries `notBefore` starts when the service clock gets there.
 */
export async function loadStateMachine(root: string, def: WorkflowDef, depsOf: (handler: string) => Deps, hooks: RunnerHooks, retryDelayMs = 50) {
  let text = await readFile(join(root, def.definition), 'utf8');
  const handlers: Record<string, (input: JsonValue) => Promise<JsonValue>> = {};
  const retries: Record<string, number> = {};
  for (const [state, task] of Object.entries(def.tasks)) {
    text = text.replaceAll(`\${${task.variable}}`, `arn:aws:lambda:us-east-1:000000000000:function:${state}`);
    const module = (await import(pathToFileURL(join(root, task.handler)).href)) as { createHandler: (deps: Deps) => TaskHandler };
    const handler = module.createHandler(depsOf(task.handler));
    handlers[state] = async (parameters) => {
      // The lambda:invoke integration's Parameters are { FunctionName, Payload }: the function sees Payload.
      const input = (parameters as { Payload?: JsonValue } | null)?.Payload ?? parameters;
      const notBefore = (input as { notBefore?: unknown } | null)?.notBefore;
      if (typeof notBefore === 'string') await hooks.until(notBefore);
      hooks.busy(1);
      try {
        return { Payload: (await handler(input)) as JsonValue };
      } finally {
        hooks.busy(-1);
      }
    };
    retries[state] = retryDelayMs;
  }
  const definition = JSON.parse(text) as Definition & { States: Record<string, { Type: string }> };
  const waits = Object.fromEntries(Object.entries(definition.States).filter(([, s]) => s.Type === 'Wait').map(([name]) => [name, 0]));
  const machine = new StateMachine(definition);
  const overrides = { taskResourceLocalHandlers: handlers, retryIntervalOverrides: retries, waitTimeOverrides: waits };
  return (input: object): Promise<unknown> => machine.run(input as JsonValue, { overrides }).result;
}
