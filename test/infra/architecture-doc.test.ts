/**
 * docs/architecture.md stays true. Its generated parts must be what `npm run docs:architecture` writes now (one
 * synthesis of the app, without bundling). Its hand-written tables must show every key prefix the table's adapters
 * write and every S3 prefix a function is granted, and nothing that no code uses. Each check is also run on a
 * deliberately stale copy of the file, to show that it fails.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { ARCHITECTURE_DOC, GENERATED_SECTIONS, generatedSections, withSections } from '#infra/architecture-doc.ts';
import { functionModules } from '#infra/routes.ts';
import { importsOf, parse, resolveImport } from '#test/support/import-graph.ts';

const committed = readFileSync(ARCHITECTURE_DOC, 'utf8');

/** The hand-written text under the `## ` heading whose title contains `title`, up to the next `## ` heading. */
function sectionOf(doc: string, title: string): string {
  const written = doc.replace(/<!-- generated:([\w-]+) -->[\s\S]*?<!-- \/generated:\1 -->/g, '');
  const start = written.split('\n').findIndex((line) => line.startsWith('## ') && line.includes(title));
  if (start < 0) throw new Error(`docs/architecture.md has no "## ...${title}..." section`);
  const lines = written.split('\n').slice(start + 1);
  const end = lines.findIndex((line) => line.startsWith('## '));
  return (end < 0 ? lines : lines.slice(0, end)).join('\n');
}

// ---- the table: what the adapters write --------------------------------------------------------------------

const TALKS_TO_DYNAMODB = /from '@aws-sdk\/(?:lib|client)-dynamodb'/;

/** A DynamoDB adapter's own module (the item builders among them talk to no client themselves). */
const DYNAMO_ADAPTER = /\/adapters\/aws\/dynamo-[\w-]+\.ts$/;

/**
 * The modules behind the table's adapters: the module of `tableAdapters` and, transitively, each module it imports
 * that talks to DynamoDB or is one of the DynamoDB adapters' modules.
 */
function tableModules(): string[] {
  const start = resolveImport('#shared/adapters/aws/dynamo-table-adapters.ts', 'package.json');
  if (!start) throw new Error('#shared/adapters/aws/dynamo-table-adapters.ts does not resolve');
  const found = new Set([start]);
  const queue = [start];
  for (let file = queue.shift(); file; file = queue.shift()) {
    for (const { to } of importsOf(file)) {
      if (found.has(to) || !(DYNAMO_ADAPTER.test(to) || TALKS_TO_DYNAMODB.test(parse(to).text))) continue;
      found.add(to);
      queue.push(to);
    }
  }
  return [...found].sort();
}

const KEY_ATTRIBUTE = /^(?:PK|SK|GSI\d+PK|GSI\d+SK)$/;
/** `APP#`, and `TEN#` in `...#TEN#...`: an upper-case word ending in `#`, not inside another word. */
const PREFIX = /(?<![A-Za-z0-9])([A-Z][A-Z0-9]*#)/g;

/** The key prefixes a module's string and template literals hold, and the constant sort keys it writes (`SK: 'ENV'`). */
function keysWrittenBy(file: string): { prefixes: Set<string>; constants: Set<string> } {
  const prefixes = new Set<string>();
  const constants = new Set<string>();
  const texts = (node: ts.Node): string[] => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return [node.text];
    if (ts.isTemplateExpression(node)) return [node.head.text, ...node.templateSpans.map((span) => span.literal.text)];
    return [];
  };
  const visit = (node: ts.Node) => {
    for (const text of texts(node)) for (const [, prefix] of text.matchAll(PREFIX)) prefixes.add(prefix!);
    if (ts.isPropertyAssignment(node) && KEY_ATTRIBUTE.test(node.name.getText()) && ts.isStringLiteral(node.initializer) && /^[A-Z]+$/.test(node.initializer.text)) {
      constants.add(node.initializer.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(parse(file));
  return { prefixes, constants };
}

interface TableFacts { modules: string[]; prefixes: Set<string>; constants: Set<string> }

function tableFacts(): TableFacts {
  const modules = tableModules();
  const written = modules.map(keysWrittenBy);
  return { modules, prefixes: new Set(written.flatMap((w) => [...w.prefixes])), constants: new Set(written.flatMap((w) => [...w.constants])) };
}

const codeSpans = (text: string) => [...text.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!);

/** What the table section gets wrong: prefixes, sort keys and modules it leaves out, and prefixes no code writes. */
function tableDrift(doc: string, facts: TableFacts) {
  const section = sectionOf(doc, 'DynamoDB');
  const spans = codeSpans(section);
  return {
    undocumentedPrefixes: [...facts.prefixes].filter((prefix) => !spans.some((span) => [...span.matchAll(PREFIX)].some(([, p]) => p === prefix))).sort(),
    undocumentedSortKeys: [...facts.constants].filter((constant) => !spans.includes(constant)).sort(),
    unnamedModules: facts.modules.map((file) => basename(file)).filter((name) => !section.includes(name)),
    unwrittenPrefixes: [...new Set(spans.flatMap((span) => [...span.matchAll(PREFIX)].map(([, p]) => p!)))].filter((p) => !facts.prefixes.has(p)).sort(),
  };
}

// ---- the bucket: what the functions are granted ---------------------------------------------------------------

/** Every S3 prefix a function declares access to, or a worker is triggered by. */
function grantedPrefixes(): Set<string> {
  return new Set(functionModules.flatMap(({ definition }) => [
    ...(Object.values(definition.access.documents ?? {}) as (readonly string[])[]).flat(),
    ...(definition.kind === 'worker' && definition.trigger.kind === 'objectRemoved' ? definition.trigger.prefixes : []),
  ]));
}

/** The keys in the first column of the S3 section's table. */
const documentedKeys = (doc: string) => sectionOf(doc, 'S3').split('\n')
  .filter((line) => line.startsWith('| `'))
  .map((line) => /^\| `([^`]+)`/.exec(line)![1]!);

function bucketDrift(doc: string, granted: ReadonlySet<string>) {
  const keys = documentedKeys(doc);
  return {
    undocumented: [...granted].filter((prefix) => !keys.some((key) => key.startsWith(prefix))).sort(),
    ungranted: keys.filter((key) => ![...granted].some((prefix) => key.startsWith(prefix))),
  };
}

// ---- the tests ------------------------------------------------------------------------------------------------

describe('docs/architecture.md', () => {
  let generated: Record<string, string>;
  beforeAll(() => { generated = generatedSections(); });

  it('holds exactly what npm run docs:architecture generates, between its markers', () => {
    expect(GENERATED_SECTIONS.every((name) => committed.includes(`<!-- generated:${name} -->`))).toBe(true);
    // On failure: run `npm run docs:architecture` and commit the file.
    expect(withSections(committed, generated)).toBe(committed);
  });

  it('a generated part edited by hand, or left behind by the code, fails the check', () => {
    const edited = committed.replace(/(<!-- generated:routes -->\n)/, '$1| Envelopes | `GET /v1/gone` | bearer | gone | `functions/api/gone.ts` | 512 MB, 15 s |\n');
    expect(edited).not.toBe(committed);
    expect(withSections(edited, generated)).not.toBe(edited);
    expect(() => withSections(committed.replace('<!-- /generated:queues -->', ''), generated)).toThrow(/queues/);
    expect(() => withSections(`${committed}\n<!-- generated:nothing -->\n<!-- /generated:nothing -->\n`, generated)).toThrow(/nothing/);
  });
});

describe('docs/architecture.md: the table', () => {
  const facts = tableFacts();

  it('reads the adapters the table is built from, and the prefixes they write', () => {
    expect(facts.modules.length).toBeGreaterThanOrEqual(10);
    for (const prefix of ['ENV#', 'AUD#', 'OUT#', 'APP#', 'IDEM#', 'RATE#']) expect(facts.prefixes).toContain(prefix);
    for (const constant of ['ENV', 'APP', 'STAGE']) expect(facts.constants).toContain(constant);
  });

  it('documents every key prefix and constant sort key the adapters write, names each adapter, and shows no prefix nothing writes', () => {
    expect(tableDrift(committed, facts)).toEqual({ undocumentedPrefixes: [], undocumentedSortKeys: [], unnamedModules: [], unwrittenPrefixes: [] });
  });

  it('fails on a stale table: a row dropped, a prefix renamed', () => {
    const dropped = committed.split('\n').filter((line) => !line.startsWith('| Bulk row result |')).join('\n');
    expect(tableDrift(dropped, facts).undocumentedPrefixes).toEqual(['ROW#']);
    const renamed = committed.replaceAll('`TPLCOUNT#', '`TEMPLATECOUNT#');
    expect(tableDrift(renamed, facts)).toMatchObject({ undocumentedPrefixes: ['TPLCOUNT#'], unwrittenPrefixes: ['TEMPLATECOUNT#'] });
  });
});

describe('docs/architecture.md: the bucket', () => {
  const granted = grantedPrefixes();

  it('reads the prefixes the functions declare', () => {
    for (const prefix of ['original/', 'sealed/', 'signatures/']) expect(granted).toContain(prefix);
  });

  it('documents every S3 prefix a function is granted, and no key under a prefix no function uses', () => {
    expect(bucketDrift(committed, granted)).toEqual({ undocumented: [], ungranted: [] });
  });

  it('fails on a stale bucket table: a row dropped, a key no function uses', () => {
    const dropped = committed.split('\n').filter((line) => !line.startsWith('| `uploads/')).join('\n');
    expect(bucketDrift(dropped, granted).undocumented).toEqual(['uploads/']);
    const invented = committed.replace('| `original/<envId>/<docId>.pdf` |', '| `archive/<envId>.zip` | nobody | |\n| `original/<envId>/<docId>.pdf` |');
    expect(bucketDrift(invented, granted).ungranted).toEqual(['archive/<envId>.zip']);
  });
});
