/** The fenced code blocks of the project's Markdown docs, for the test that runs every shell snippet they show. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Blocks a reader is told to run: each runs against the local stack. */
export const SHELL_LANGUAGES = new Set(['sh', 'bash', 'shell']);
/**
 * Blocks shown, not run: a shell command that cannot run on the local stack is fenced `text` (or `console` for output).
 * A fence without a language is refused: it could hide a shell snippet.
 */
export const SHOWN_LANGUAGES = new Set([
  'text', 'console', 'ts', 'typescript', 'js', 'javascript', 'json', 'jsonc', 'yaml', 'yml', 'csv', 'http', 'pem', 'html', 'xml',
  'diff', 'mermaid', 'python', 'go', 'sql',
]);

export interface DocBlock {
  /** The file, relative to the repository root. */
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  language: string;
  code: string;
}

const FENCE = /^(\s*)(`{3,}|~{3,})\s*([^\s`]*)/;

/**
 * Every fenced block of one Markdown text, in order. A fence may be indented (inside a list item); the block's lines
 * lose that indentation. A block left open at the end of the file is an error, so no snippet hides in one.
 */
export function docBlocks(file: string, markdown: string): DocBlock[] {
  const lines = markdown.split('\n');
  const blocks: DocBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i] ?? '');
    if (!open) continue;
    const [, indent = '', fence = '', language = ''] = open;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const text = lines[j] ?? '';
      const close = FENCE.exec(text);
      if (close?.[2]?.startsWith(fence) && close[3] === '' && text.trim() === close[2]) break;
      body.push(text.startsWith(indent) ? text.slice(indent.length) : text.trimStart());
    }
    if (j >= lines.length) throw new Error(`${file}:${String(i + 1)}: a code fence is never closed`);
    blocks.push({ file, line: i + 1, language: language.toLowerCase(), code: body.join('\n') });
    i = j;
  }
  return blocks;
}

/** README.md first, then docs/*.md in name order: the order a reader meets them, and the same on every run. */
export function projectDocs(root: string): string[] {
  const docs = readdirSync(join(root, 'docs')).filter((name) => name.endsWith('.md')).sort().map((name) => `docs/${name}`);
  return ['README.md', ...docs];
}

export function projectDocBlocks(root: string): DocBlock[] {
  return projectDocs(root).flatMap((file) => docBlocks(file, readFileSync(join(root, file), 'utf8')));
}
