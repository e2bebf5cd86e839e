/**
 * The repository's modules and what each imports, read with the TypeScript compiler: specifiers resolve as tsc
 * resolves them (NodeNext, so the package.json `imports` aliases such as `#shared/*` too), and only files of the
 * repository are kept (packages are leaves). Used by the import-cycle test and the architecture document's checks.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { REPO_ROOT } from '#infra/constructs/bundling.ts';

export interface ImportEdge {
  /** The imported file, relative to the repository root. */
  to: string;
  /** `import type`, `export type` or every named binding marked `type`: gone at run time. */
  typeOnly: boolean;
  /** `import('...')`: loaded only when the code runs it. */
  dynamic: boolean;
}

const options: ts.CompilerOptions = (() => {
  const config = ts.readConfigFile(join(REPO_ROOT, 'tsconfig.json'), (path) => ts.sys.readFile(path));
  return ts.parseJsonConfigFileContent(config.config, ts.sys, REPO_ROOT).options;
})();

const SKIPPED = new Set(['node_modules', 'dist', 'cdk.out', '.data', '.git']);

/** The .ts and .tsx files under `dirs` (relative to the repository root), declaration files aside, sorted. */
export function sourceFiles(dirs: readonly string[]): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(REPO_ROOT, dir), { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!SKIPPED.has(entry.name)) walk(path);
      } else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) {
        found.push(path);
      }
    }
  };
  for (const dir of dirs) walk(dir);
  return found.sort();
}

/** Where `specifier` imported from `file` resolves to, relative to the root; undefined for a package or a miss. */
export function resolveImport(specifier: string, file: string): string | undefined {
  const resolved = ts.resolveModuleName(specifier, join(REPO_ROOT, file), options, ts.sys).resolvedModule;
  if (!resolved || resolved.isExternalLibraryImport) return undefined;
  const path = relative(REPO_ROOT, resolved.resolvedFileName).split('\\').join('/');
  return path.startsWith('..') ? undefined : path;
}

function isTypeOnly(node: ts.ImportDeclaration | ts.ExportDeclaration): boolean {
  if (ts.isExportDeclaration(node)) return node.isTypeOnly;
  const clause = node.importClause;
  if (!clause) return false;
  if (clause.phaseModifier === ts.SyntaxKind.TypeKeyword) return true;
  const bindings = clause.namedBindings;
  return !clause.name && bindings !== undefined && ts.isNamedImports(bindings) && bindings.elements.length > 0 && bindings.elements.every((e) => e.isTypeOnly);
}

/** The source of `file` (relative to the root), parsed. */
export function parse(file: string): ts.SourceFile {
  return ts.createSourceFile(file, readFileSync(join(REPO_ROOT, file), 'utf8'), ts.ScriptTarget.Latest, true);
}

/** What `file` imports from the repository: static imports and re-exports, and `import()` of a string literal. */
export function importsOf(file: string): ImportEdge[] {
  const edges: ImportEdge[] = [];
  const add = (specifier: string, typeOnly: boolean, dynamic: boolean) => {
    const to = resolveImport(specifier, file);
    if (to) edges.push({ to, typeOnly, dynamic });
  };
  const visit = (node: ts.Node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      add(node.moduleSpecifier.text, isTypeOnly(node), false);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteralLike(node.arguments[0])) {
      add(node.arguments[0].text, false, true);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      add(node.argument.literal.text, true, false);
    }
    ts.forEachChild(node, visit);
  };
  visit(parse(file));
  return edges;
}

/** Each file's imports, for every file of `files`. */
export function importGraph(files: readonly string[]): Map<string, ImportEdge[]> {
  return new Map(files.map((file) => [file, importsOf(file)]));
}

/**
 * The import cycles among `graph`'s files along the edges `follow` keeps: each strongly connected component of more
 * than one file (or a file importing itself), as the files in it, sorted.
 */
export function importCycles(graph: ReadonlyMap<string, readonly ImportEdge[]>, follow: (edge: ImportEdge) => boolean): string[][] {
  // Tarjan's algorithm, iterative enough for a few hundred files.
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const next = (file: string) => [...new Set((graph.get(file) ?? []).filter(follow).map((e) => e.to).filter((to) => graph.has(to)))];
  const connect = (file: string) => {
    index.set(file, counter);
    low.set(file, counter);
    counter++;
    stack.push(file);
    onStack.add(file);
    for (const to of next(file)) {
      if (!index.has(to)) {
        connect(to);
        low.set(file, Math.min(low.get(file)!, low.get(to)!));
      } else if (onStack.has(to)) {
        low.set(file, Math.min(low.get(file)!, index.get(to)!));
      }
    }
    if (low.get(file) === index.get(file)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== file);
      if (component.length > 1 || next(file).includes(file)) components.push(component.sort());
    }
  };
  for (const file of graph.keys()) if (!index.has(file)) connect(file);
  return components.sort((a, b) => a[0]!.localeCompare(b[0]!));
}
