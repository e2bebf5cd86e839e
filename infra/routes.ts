/**
 * The manifest, discovered: every module in functions/api and functions/workers exports its `definition` (a route,
 * the fallback route, a worker or a workflow task: shared/http/endpoint.ts), and this module collects them. The
 * local runtime, the API description (infra/openapi.ts) and the CDK stacks all read what it exports. Only the state
 * machines are listed here, since a workflow is an ASL file rather than a module.
 *
 * Node only (synth, the local runtime, tests): no bundle imports this module, which imports every function.
 */
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { AuthKind, Method, RouteDeclaration, Tag } from '#shared/http/declaration.ts';
import type { FunctionDefinition, Trigger } from '#shared/http/endpoint.ts';

export type { AuthKind };

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const FUNCTION_DIRS = ['functions/api', 'functions/workers'] as const;

/** A function module: its path from the repository root (the CDK entry, the handler key) and what it declares. */
export interface FunctionModule { handler: string; definition: FunctionDefinition }

async function discover(): Promise<FunctionModule[]> {
  const found: FunctionModule[] = [];
  for (const dir of FUNCTION_DIRS) {
    for (const file of readdirSync(join(ROOT, dir)).filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts')).sort()) {
      const handler = `${dir}/${file}`;
      const module = (await import(pathToFileURL(join(ROOT, handler)).href)) as { definition?: FunctionDefinition; handler?: unknown };
      if (!module.definition || typeof module.handler !== 'function') {
        throw new Error(`${handler} must export its \`definition\` (shared/http/endpoint.ts) and \`handler = lambda(definition)\``);
      }
      found.push({ handler, definition: module.definition });
    }
  }
  return found;
}

export const functionModules: readonly FunctionModule[] = await discover();

/** A route: its declaration and its module. */
export type RouteDef = RouteDeclaration & { handler: string };

const TAG_ORDER: readonly Tag[] = ['Auth', 'Envelopes', 'Templates', 'Signing', 'Webhooks', 'Console', 'Meta'];
const METHOD_ORDER: readonly Method[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const byTagPathMethod = (a: RouteDef, b: RouteDef) =>
  TAG_ORDER.indexOf(a.tag) - TAG_ORDER.indexOf(b.tag) || a.path.localeCompare(b.path) || METHOD_ORDER.indexOf(a.method) - METHOD_ORDER.indexOf(b.method);

/** Every HTTP route, grouped by tag, then by path. */
export const routes: readonly RouteDef[] = functionModules
  .flatMap(({ handler, definition }) => (definition.kind === 'route' ? [{ ...(definition.declaration as RouteDeclaration), handler }] : []))
  .sort(byTagPathMethod);

const fallbacks = functionModules.filter(({ definition }) => definition.kind === 'fallback');
if (fallbacks.length !== 1) throw new Error(`Exactly one module must define the fallback route; found ${String(fallbacks.length)}`);

/** Every request no route takes: 404 or 405 in the error shape, through the pipeline (the HTTP API's `$default` route). */
export const fallbackRoute = { handler: fallbacks[0]?.handler ?? '', operationId: 'noRoute' } as const;

/** Background functions: what triggers each. */
export interface WorkerDef { name: string; handler: string; trigger: Trigger }
export const workers: readonly WorkerDef[] = functionModules.flatMap(({ handler, definition }) =>
  definition.kind === 'worker' ? [{ name: definition.name, handler, trigger: definition.trigger }] : []);

/** State machines: the ASL file (shared by CDK and the local runner) and the function behind each Task state. */
export interface WorkflowDef {
  name: string;
  definition: string;
  /** Task state name -> the substitution variable in the ASL and the handler module. */
  tasks: Record<string, { variable: string; handler: string }>;
}

export const workflows: readonly WorkflowDef[] = [
  {
    name: 'seal-envelope',
    definition: 'infra/workflows/seal-envelope.asl.json',
    tasks: {
      Seal: { variable: 'SealFunctionArn', handler: 'functions/workers/seal.ts' },
      Finalize: { variable: 'FinalizeFunctionArn', handler: 'functions/workers/finalize.ts' },
      RecordFailure: { variable: 'SealFailedFunctionArn', handler: 'functions/workers/seal-failed.ts' },
    },
  },
  {
    name: 'webhook-retry',
    definition: 'infra/workflows/webhook-retry.asl.json',
    tasks: { Attempt: { variable: 'WebhookAttemptFunctionArn', handler: 'functions/workers/webhook-attempt.ts' } },
  },
];

/** What the module `handler` declares; throws for a path that is not a function module. */
export function definitionOf(handler: string): FunctionDefinition {
  const found = functionModules.find((m) => m.handler === handler);
  if (!found) throw new Error(`${handler} is not a function module (functions/api, functions/workers)`);
  return found.definition;
}

const taskHandlers = new Set(workflows.flatMap((w) => Object.values(w.tasks).map((t) => t.handler)));
for (const { handler, definition } of functionModules) {
  if (definition.kind === 'task' && !taskHandlers.has(handler)) throw new Error(`${handler} is a workflow task no workflow uses`);
  if (taskHandlers.has(handler) && definition.kind !== 'task') throw new Error(`${handler} is a workflow's task but defines a ${definition.kind}`);
}
