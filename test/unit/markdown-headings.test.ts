// No Markdown file of the repository has two headings with the same text at the same level under the
// same parent: such a pair is a section left behind by a copy, or one that a link cannot tell apart.
// Headings inside fenced code blocks are code, not headings.
import { describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';

interface Heading {
  level: number;
  text: string;
  line: number;
}

/** The ATX headings (`## Text`) outside fenced code blocks. */
function headings(markdown: string): Heading[] {
  const found: Heading[] = [];
  let fence: string | undefined;
  markdown.split('\n').forEach((line, index) => {
    const opening = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (opening) {
      if (!fence) fence = opening[1];
      else if (
        opening[1][0] === fence[0] &&
        opening[1].length >= fence.length &&
        !/\S/.test(line.trim().slice(opening[1].length))
      )
        fence = undefined;
      return;
    }
    if (fence) return;
    const m = /^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/.exec(line);
    if (m) found.push({ level: m[1].length, text: m[2].trim(), line: index + 1 });
  });
  return found;
}

/** `line N and line M: ## Text` for each heading that repeats a sibling's text. */
function duplicateHeadings(markdown: string): string[] {
  const duplicates: string[] = [];
  // The open headings, one per level; a heading's parent is the nearest open one above its level.
  const open: Array<Heading & { id: number }> = [];
  const seen = new Map<string, Heading>();
  headings(markdown).forEach((heading, id) => {
    while (open.length && open[open.length - 1].level >= heading.level) open.pop();
    const parent = open.length ? open[open.length - 1].id : -1;
    const key = `${parent}\u0000${heading.level}\u0000${heading.text}`;
    const first = seen.get(key);
    if (first)
      duplicates.push(
        `line ${first.line} and line ${heading.line}: ${'#'.repeat(heading.level)} ${heading.text}`,
      );
    else seen.set(key, heading);
    open.push({ ...heading, id });
  });
  return duplicates;
}

function markdownFiles(): string[] {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '*.md'], {
    encoding: 'utf8',
  });
  return listed
    .split('\n')
    .filter((file) => file !== '' && !file.split('/').includes('node_modules') && fs.existsSync(file));
}

describe('Markdown headings', () => {
  it('no file repeats a heading under the same parent', () => {
    const files = markdownFiles();
    expect(files).toEqual(expect.arrayContaining(['README.md', 'docs/cli.md', 'docs/reap.md']));
    const found = files.flatMap((file) =>
      duplicateHeadings(fs.readFileSync(file, 'utf8')).map((d) => `${file}: ${d}`),
    );
    expect(found).toEqual([]);
  });

  it('catches a section left behind by a copy, and only that', () => {
    const text = [
      '# Tool',
      '## Command line',
      '### Exit codes',
      '## Podman',
      '```sh',
      '## Podman',
      '```',
      '## Inputs',
      '### Exit codes',
      '## Command line',
      '### Exit codes',
    ].join('\n');
    expect(duplicateHeadings(text)).toEqual(['line 2 and line 10: ## Command line']);
    expect(duplicateHeadings('# A\n## Added\n# B\n## Added\n')).toEqual([]);
    expect(duplicateHeadings('# A\n## Added\n## Added ##\n')).toEqual(['line 2 and line 3: ## Added']);
  });
});
