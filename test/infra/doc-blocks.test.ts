/** The fenced-block reader behind test/e2e/doc-snippets.test.ts: what it finds is what runs, so nothing may slip by. */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { docBlocks, projectDocs } from '#test/support/doc-blocks.ts';

const ROOT = new URL('../..', import.meta.url).pathname;

/** The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens. */
const slug = (heading: string) => heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\- _]/gu, '').replace(/ /g, '-');

function headingsOf(file: string): Set<string> {
  return new Set(readFileSync(join(ROOT, file), 'utf8').split('\n').flatMap((line) => /^#+\s+(.*)$/.exec(line)?.[1] ?? []).map(slug));
}

/** Relative links outside code blocks, as [file, line, target]. */
function relativeLinks(file: string): [string, number, string][] {
  const links: [string, number, string][] = [];
  let inCode = false;
  readFileSync(join(ROOT, file), 'utf8').split('\n').forEach((line, i) => {
    if (line.trimStart().startsWith('```')) inCode = !inCode;
    if (inCode) return;
    for (const match of line.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = match[1] ?? '';
      if (!/^[a-z]+:/.test(target)) links.push([file, i + 1, target]);
    }
  });
  return links;
}

describe('docBlocks', () => {
  it('finds every fence with its language and line, indented ones (in list items) with the indentation removed', () => {
    const markdown = [
      '# Title', // 1
      '```sh', // 2
      'echo one', // 3
      '```', // 4
      '1. **Deploy.**', // 5
      '   ```Bash', // 6
      '   npm run cdk -- deploy', // 7
      '     --all', // 8
      '   ```', // 9
      '```', // 10
      'a bare fence', // 11
      '```', // 12
      '````text', // 13
      '```sh', // 14
      'shown, not run', // 15
      '```', // 16
      '````', // 17
    ].join('\n');
    expect(docBlocks('x.md', markdown)).toEqual([
      { file: 'x.md', line: 2, language: 'sh', code: 'echo one' },
      { file: 'x.md', line: 6, language: 'bash', code: 'npm run cdk -- deploy\n  --all' },
      { file: 'x.md', line: 10, language: '', code: 'a bare fence' },
      { file: 'x.md', line: 13, language: 'text', code: '```sh\nshown, not run\n```' },
    ]);
  });

  it('refuses a fence that is never closed, which would hide every snippet after it', () => {
    expect(() => docBlocks('x.md', 'text\n```sh\necho never closed\n')).toThrow('x.md:2: a code fence is never closed');
  });

  it('reads README.md first, then docs/*.md in name order', () => {
    const docs = projectDocs(ROOT);
    expect(docs[0]).toBe('README.md');
    expect(docs.slice(1)).toEqual([...docs.slice(1)].sort());
    expect(docs).toContain('docs/api-guide.md');
  });
});

describe('links between the docs', () => {
  it('point at files that exist and at headings they have', () => {
    const broken = projectDocs(ROOT).flatMap(relativeLinks).filter(([file, , target]) => {
      const [path = '', anchor] = target.split('#');
      const linked = path === '' ? file : normalize(join(dirname(file), path));
      if (!existsSync(join(ROOT, linked))) return true;
      return anchor !== undefined && linked.endsWith('.md') && !headingsOf(linked).has(anchor);
    });
    expect(broken.map(([file, line, target]) => `${file}:${String(line)} ${target}`)).toEqual([]);
  });
});
