/**
 * Which test files need the local engines, told from what they do rather than where they live: a test file is an
 * engines test when it, or a test-support module it imports (a value import, followed through), starts an engine
 * (DynamoDB Local, s3rver, SES, SQS, the local PKI or the whole local stack) or reads the shared stack's endpoints
 * (vitest's `inject`, provided by test/support/global-setup.ts). vitest.config.ts builds its projects from this; plain
 * text, no compiler, so loading the config stays fast.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';

/** A call that starts an engine, or reads what the shared stack provides. */
const NEEDS_ENGINES = /\binject\(|\bstart(?:LocalStack|DynamoDbLocal|S3|Ses|Sqs|LocalPki|TestPki)\(/;
/** Value imports (not `import type`) of test modules: `#test/...` or relative. */
const TEST_IMPORTS = /^\s*(?:import|export)\s+(?!type\s)[^;]*?from\s+'(#test\/[^']+|\.\.?\/[^']+)'/gm;

function testFiles(root: string, dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'fixtures' ? [] : testFiles(root, path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** What makes `file` need the engines (`file -> module -> ...`), or null when nothing does. */
function engineReason(root: string, file: string, memo: Map<string, string | null>, visiting = new Set<string>()): string | null {
  const known = memo.get(file);
  if (known !== undefined) return known;
  if (visiting.has(file)) return null;
  visiting.add(file);
  let text: string;
  try {
    text = readFileSync(join(root, file), 'utf8');
  } catch {
    return null;
  }
  let reason = NEEDS_ENGINES.test(text) ? file : null;
  for (const [, specifier = ''] of reason ? [] : text.matchAll(TEST_IMPORTS)) {
    const target = specifier.startsWith('#test/') ? `test/${specifier.slice('#test/'.length)}` : normalize(join(dirname(file), specifier)).split('\\').join('/');
    // Test modules only: the service's own code (the local runtime starts engines) is what the tests exercise.
    if (!target.startsWith('test/')) continue;
    const inner = engineReason(root, target, memo, visiting);
    if (inner) {
      reason = `${file} -> ${inner}`;
      break;
    }
  }
  memo.set(file, reason);
  return reason;
}

export interface TestProjects {
  /** Test files that start or use the engines, with the import path that makes them (for the error messages). */
  engines: Map<string, string>;
  /** Every other test file under `dirs`. */
  unit: string[];
}

/** Splits the test files under `dirs` (relative to `root`) by whether they need the engines. */
export function classifyTests(root: string, dirs: readonly string[]): TestProjects {
  const memo = new Map<string, string | null>();
  const engines = new Map<string, string>();
  const unit: string[] = [];
  for (const file of dirs.flatMap((dir) => testFiles(root, dir)).sort()) {
    const reason = engineReason(root, file, memo);
    if (reason) engines.set(file, reason);
    else unit.push(file);
  }
  return { engines, unit };
}
