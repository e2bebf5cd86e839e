/**
 * The repository owns its reasoning: no file may cite a document a person who clones the project does not have
 * (planning notes, outside specifications, issue numbers), and every `(decision N)` pointer must lead to a heading of
 * docs/decisions.md. Scans every git-tracked text file; no engine.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { outsideCitationsIn } from '#test/support/outside-citations.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const DECISION_LOG = 'docs/decisions.md';
/** The patterns and their samples name what they look for. */
const PATTERN_FILES = new Set(['test/repository/citations.test.ts', 'test/support/outside-citations.ts']);

/** `(decision 12)`, `docs/decisions.md, decision 12`: the one form of pointer into docs/decisions.md. */
const POINTER = /\bdecision (\d+)\b/gi;

const SKIPPED = (path: string) =>
  path === 'package-lock.json' || PATTERN_FILES.has(path) || path.startsWith('test/fixtures/') ||
  /\.(pdf|png|jpe?g|gif|ico|woff2?|ttf|otf|zip|gz|p12|der)$/i.test(path);

interface TextFile { path: string; lines: string[] }

function trackedTextFiles(): TextFile[] {
  const paths = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
    .split('\0').filter((path) => path !== '' && !SKIPPED(path));
  const files: TextFile[] = [];
  for (const path of paths) {
    let bytes: Buffer;
    try {
      bytes = readFileSync(join(ROOT, path));
    } catch {
      continue; // tracked but deleted in the work tree
    }
    if (bytes.subarray(0, 8000).includes(0)) continue; // binary
    files.push({ path, lines: bytes.toString('utf8').split('\n') });
  }
  return files;
}

/** `file:line: text` for every line citing an outside document. */
function outsideCitations(files: readonly TextFile[]): string[] {
  const found: string[] = [];
  for (const { path, lines } of files) {
    lines.forEach((line, i) => {
      const hits = outsideCitationsIn(line);
      if (hits.length > 0) found.push(`${path}:${String(i + 1)}: ${hits.join(', ')}: ${line.trim().slice(0, 160)}`);
    });
  }
  return found;
}

interface Heading { number: number; title: string; general: boolean }

function decisionHeadings(markdown: string): Heading[] {
  return [...markdown.matchAll(/^## (\d+)\. (.+)$/gm)].map((m) => ({
    number: Number(m[1]), title: (m[2] ?? '').trim(), general: /\(general\)\s*$/.test(m[2] ?? ''),
  }));
}

/** Every `decision N` pointer, by file and line. */
function pointers(files: readonly TextFile[]): { at: string; number: number }[] {
  const found: { at: string; number: number }[] = [];
  for (const { path, lines } of files) {
    lines.forEach((line, i) => {
      for (const m of line.matchAll(POINTER)) found.push({ at: `${path}:${String(i + 1)}`, number: Number(m[1]) });
    });
  }
  return found;
}

describe('the citation patterns', () => {
  const cites = (text: string) => outsideCitationsIn(text).length > 0;

  // The outside documents' names are assembled here, so this file cites none of them itself.
  const [decisions, additions, design, style] = [['DECI', 'SIONS'], ['ADDI', 'TIONS'], ['DES', 'IGN'], ['STY', 'LE']].map((parts) => parts.join(''));
  it.each([
    `(${decisions} 7)`, `${additions} A4`, `see ${design} 3`, `${design}.md`, `${style}.md`, 'spec/api-' + 'spec.md', 'spec 2.9',
    'Spec 8: on every response', '(spec §4.1)', 'fixed in issue 23', 'Issue #7', '(A6)', 'A3\'s rules',
    '(A4; one bulk-send row is the same)', 'Bulk send (A5): rows', `as ${additions} say`, 'after A7.', 'The A7 messages', 'A1, A2 and A3', 'per A16.',
  ])('finds a citation in %j', (text) => {
    expect(cites(text)).toBe(true);
  });

  it.each([
    'appends A4 pages after the original ones', 'A4 portrait', "const A4 = { width: 595, height: 842 };",
    'box: A4, rotate: 0', '[A4.width, A4.height]', 'toEqual(A4);', "opts.size ?? A4)", "'%ZZ', '%E0%A4%A', 'x'", 'a%ED%A0%80b',
    "case 'ASCII85Decode': case 'A85':", '0xA5', 'the spec requires', 'KeySpec: spec,', 'an issue with the reader',
    '(decision 7)', 'docs/decisions.md, decision 12', 'SHA256', 'A4 paper',
  ])('finds none in %j', (text) => {
    expect(cites(text)).toBe(false);
  });
});

describe('citations in the repository', () => {
  const files = trackedTextFiles();
  const markdown = readFileSync(join(ROOT, DECISION_LOG), 'utf8');
  const headings = decisionHeadings(markdown);

  it('scans the tracked text files', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(files.some((f) => f.path === DECISION_LOG)).toBe(true);
  });

  it('cites no document outside the repository', () => {
    expect(outsideCitations(files)).toEqual([]);
  });

  it('numbers the decisions 1, 2, 3, ... without gaps', () => {
    expect(headings.length).toBeGreaterThan(0);
    expect(headings.map((h) => h.number)).toEqual(headings.map((_, i) => i + 1));
  });

  it('points only at decisions that exist', () => {
    const numbers = new Set(headings.map((h) => h.number));
    expect(pointers(files).filter((p) => !numbers.has(p.number)).map((p) => `${p.at}: decision ${String(p.number)}`)).toEqual([]);
  });

  it('has every decision pointed at from outside docs/decisions.md, or marked (general)', () => {
    const cited = new Set(pointers(files.filter((f) => f.path !== DECISION_LOG)).map((p) => p.number));
    expect(headings.filter((h) => !h.general && !cited.has(h.number)).map((h) => `${String(h.number)}. ${h.title}`)).toEqual([]);
  });
});
