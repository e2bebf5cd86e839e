import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { StateMachine } from 'aws-local-stepfunctions';
import type { Deps } from '#shared/deps.ts';
import type { WorkflowDef } from '../infra/routes.ts';

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

/** What the local runtime lends the runner: waits on the service clock, and a count of tasks at work (for draining). */
export interface RunnerHooks {
  /** The service clock's time. */
  now(): Date;
  /** Resolves once the service clock reaches `iso` (Wait states are timed on the service clock locally). */
  until(iso: string): Promise<void>;
  busy(delta: 1 | -1): void;
  /** Invokes a task's function as Lambda would (held to its timeout); by default, just calls it. */
  invoke?: <T>(handler: string, work: () => Promise<T>) => Promise<T>;
}

/** A Wait state's duration in seconds, from whichever of its fields it uses. */
function waitSeconds(state: WaitState, input: Record<string, unknown>, now: Date): number {
  if (state.Seconds !== undefined) return state.Seconds;
  if (state.SecondsPath) return Number(input[state.SecondsPath.replace(/^\$\./, '')] ?? 0);
  const at = state.Timestamp ?? (state.TimestampPath ? String(input[state.TimestampPath.replace(/^\$\./, '')]) : undefined);
  return at ? Math.max(0, (Date.parse(at) - now.getTime()) / 1000) : 0;
}

interface WaitState { Type: 'Wait'; Seconds?: number; SecondsPath?: string; Timestamp?: string; TimestampPath?: string; Next?: string; End?: boolean }

/**

 * Far beyond any wait the workflows have (the webhook schedule's 6 h), so a Task's own timeout never cuts a wait short,
 * and below setTimeout's limit (2^31 - 1 ms, about 24.8 days), past which a timer fires at once.
 */
const WAIT_TASK_TIMEOUT_SECONDS = 7 * 86_400;

/**
 * The same ASL file CDK deploys, run in process: `${...}` function ARNs substituted with placeholders and every Task
 * state mapped to its handler (with that function's own deps), which answers `{ Payload }` as the Lambda invoke
 * integration does. Wait states wait on the service clock, as AWS waits on real time: each becomes a local task that
 * resolves when the service clock reaches the end of the wait (moved by `POST /_local/clock`, or by real time
 * passing), with a timeout no wait reaches.
 */
export async function loadStateMachine(root: string, def: WorkflowDef, depsOf: (handler: string) => Deps, hooks: RunnerHooks, retryDelayMs = 50) {
  let text = await readFile(join(root, def.definition), 'utf8');
  const handlers: Record<string, (input: JsonValue) => Promise<JsonValue>> = {};
  const retries: Record<string, number> = {};
  for (const [state, task] of Object.entries(def.tasks)) {
    text = text.replaceAll(`\${${task.variable}}`, `arn:aws:lambda:us-east-1:000000000000:function:${state}`);
    const module = (await import(pathToFileURL(join(root, task.handler)).href)) as { definition: { createHandler: (deps: Deps) => TaskHandler } };
    const handler = module.definition.createHandler(depsOf(task.handler));
    handlers[state] = async (parameters) => {
      // The lambda:invoke integration's Parameters are { FunctionName, Payload }: the function sees Payload.
      const input = (parameters as { Payload?: JsonValue } | null)?.Payload ?? parameters;
      hooks.busy(1);
      try {
        const invoke = hooks.invoke ?? (<T>(_: string, work: () => Promise<T>) => work());
        return { Payload: (await invoke(task.handler, () => handler(input))) as JsonValue };
      } finally {
        hooks.busy(-1);
      }
    };
    retries[state] = retryDelayMs;
  }
  const states = (JSON.parse(text) as { States: Record<string, { Type: string } & Record<string, unknown>> }).States;
  for (const [name, state] of Object.entries(states)) {
    if (state.Type !== 'Wait') continue;
    const wait = state as WaitState;
    states[name] = {
      Type: 'Task', Resource: `arn:aws:lambda:us-east-1:000000000000:function:${name}`, TimeoutSeconds: WAIT_TASK_TIMEOUT_SECONDS,
      ...(wait.Next ? { Next: wait.Next } : { End: true }),
    };
    handlers[name] = async (input) => {
      const seconds = waitSeconds(wait, (input ?? {}) as Record<string, unknown>, hooks.now());
      await hooks.until(new Date(hooks.now().getTime() + seconds * 1000).toISOString());
      return input;
    };
  }
  const machine = new StateMachine({ ...(JSON.parse(text) as Definition), States: states } as Definition);
  const overrides = { taskResourceLocalHandlers: handlers, retryIntervalOverrides: retries };
  return (input: object): Promise<unknown> => machine.run(input as JsonValue, { overrides }).result;
}
