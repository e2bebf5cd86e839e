/**
 * Keeps docs/architecture.md true where code can say it: `npm run docs:architecture` rewrites each part between
 * `<!-- generated:<name> -->` and `<!-- /generated:<name> -->` from the route declarations (infra/routes.ts) and from
 * the synthesized CDK app (infra/architecture-template.ts). The rest of the file is written by hand; the test beside
 * it (test/infra/architecture-doc.test.ts) fails when either part has drifted from the code.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO_ROOT } from './constructs/bundling.ts';
import { fallbackRoute, routes, workers, workflows } from './routes.ts';
import { alarmFacts, functionFacts, lifecycleFacts, machineFacts, queueFacts, routeKeys, ruleFacts, synthesizeTemplates, tableFacts, type FunctionFact, type StackTemplate } from './architecture-template.ts';

export const ARCHITECTURE_DOC = join(REPO_ROOT, 'docs', 'architecture.md');

const row = (cells: readonly unknown[]) => `| ${cells.map((c) => String(c).replaceAll('|', '\\|').replaceAll('\n', ' ')).join(' | ')} |`;
const table = (head: readonly string[], rows: readonly (readonly unknown[])[]) => [row(head), row(head.map(() => '---')), ...rows.map(row)].join('\n');
const code = (text: string) => `\`${text}\``;
const size = (f: FunctionFact | undefined) => (f ? `${String(f.memoryMb ?? 128)} MB, ${String(f.timeoutSeconds ?? 3)} s${f.reserved === undefined ? '' : `, ${String(f.reserved)} reserved`}` : 'not deployed');

/** The module behind each manifest function, by the description its stack gives it. */
function modulesByDescription(): Map<string, string> {
  return new Map([
    ...routes.map((r) => [`${r.method} ${r.path}`, r.handler] as const),
    ['no route ($default)', fallbackRoute.handler] as const,
    ...workers.map((w) => [`worker: ${w.name}`, w.handler] as const),
    ...workflows.flatMap((wf) => Object.entries(wf.tasks).map(([state, task]) => [`${wf.name}: ${state}`, task.handler] as const)),
  ]);
}

function routesSection(stacks: readonly StackTemplate[]): string {
  const functions = new Map(functionFacts(stacks).map((f) => [f.description, f]));
  const keys = routeKeys(stacks);
  const rows = routes.map((r) => {
    const key = `${r.method} ${r.path}`;
    return [r.tag, code(key), r.auth, r.operationId, code(r.handler), keys.has(key) ? size(functions.get(key)) : 'no API route'];
  });
  rows.push(['–', code('$default'), 'any', fallbackRoute.operationId, code(fallbackRoute.handler), keys.has('$default') ? size(functions.get('no route ($default)')) : 'no API route']);
  return table(['Tag', 'Route', 'Auth', 'Operation', 'Module', 'Function'], rows);
}

function functionsSection(stacks: readonly StackTemplate[]): string {
  const modules = modulesByDescription();
  const background = functionFacts(stacks).filter((f) => !f.stack.startsWith('api'));
  const rows = background.map((f) => {
    const module = modules.get(f.description);
    return [f.stack, code(f.description), module ? code(module) : 'CDK-provided', size(f), f.triggers.join('; ') || 'nothing in the template (started by the code)'];
  });
  return table(['Stack', 'Function', 'Module', 'Size', 'Started by'], rows);
}

function tableSection(stacks: readonly StackTemplate[]): string {
  return tableFacts(stacks).map((t) => [
    `Table \`${t.name}\`: key ${t.keys}, billing ${code(t.billing)}, TTL attribute ${t.ttl}.`,
    '',
    table(['Index', 'Key', 'Projection'], t.indexes.map((i) => [i.name, i.keys, code(i.projection)])),
  ].join('\n')).join('\n\n');
}

const sections: Record<string, (stacks: readonly StackTemplate[]) => string> = {
  table: tableSection,
  lifecycle: (stacks) => table(['Bucket', 'Rule', 'Applies to', 'Action'], lifecycleFacts(stacks).map((l) => [code(l.bucket), code(l.rule), l.applies, l.action])),
  routes: routesSection,
  functions: functionsSection,
  queues: (stacks) => table(['Queue', 'Visibility', 'Retention', 'Dead letters go to', 'Receives'], queueFacts(stacks).map((q) => [code(q.name), q.visibility, q.retention, q.deadLetter, q.feeds.join('; ') || 'the code sends to it'])),
  rules: (stacks) => table(['Rule', 'When', 'Target', 'Retries', 'Dead letters'], ruleFacts(stacks).map((r) => [code(r.name), r.when, r.target, r.retries, r.deadLetter])),
  workflows: (stacks) => machineFacts(stacks).map((m) => `- ${code(m.name)}: ${m.states.join(', ')}`).join('\n'),
  alarms: (stacks) => table(['Stack', 'Alarm', 'Watches', 'Means'], alarmFacts(stacks).map((a) => [a.stack, code(a.name), a.watches, a.description])),
};

export const GENERATED_SECTIONS = Object.keys(sections);

/** Each generated part, built from one synthesis of the app. */
export function generatedSections(stacks: readonly StackTemplate[] = synthesizeTemplates()): Record<string, string> {
  return Object.fromEntries(Object.entries(sections).map(([name, build]) => [name, build(stacks)]));
}

/** `doc` with each generated part replaced; throws for a part without its markers, or markers for no part. */
export function withSections(doc: string, generated: Record<string, string>): string {
  const marked = [...doc.matchAll(/<!-- generated:([\w-]+) -->/g)].map((m) => m[1] ?? '');
  const unknown = marked.filter((name) => !(name in generated));
  if (unknown.length > 0) throw new Error(`docs/architecture.md marks parts nothing generates: ${unknown.join(', ')}`);
  return Object.entries(generated).reduce((text, [name, body]) => {
    const pattern = new RegExp(`(<!-- generated:${name} -->\\n)[\\s\\S]*?(<!-- /generated:${name} -->)`);
    if (!pattern.test(text)) throw new Error(`docs/architecture.md has no <!-- generated:${name} --> ... <!-- /generated:${name} --> markers`);
    return text.replace(pattern, (_all, open: string, close: string) => `${open}${body}\n${close}`);
  }, doc);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const before = readFileSync(ARCHITECTURE_DOC, 'utf8');
  const after = withSections(before, generatedSections());
  if (process.argv.includes('--check')) {
    if (after !== before) {
      console.error('docs/architecture.md is out of date: run npm run docs:architecture');
      process.exit(1);
    }
  } else if (after !== before) {
    writeFileSync(ARCHITECTURE_DOC, after);
    console.log('docs/architecture.md rewritten');
  } else {
    console.log('docs/architecture.md is up to date');
  }
}
