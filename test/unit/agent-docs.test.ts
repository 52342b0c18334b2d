// Every agent command the docs and examples show carries what its CLI needs to do anything unattended
// (test/e2e/agents/ runs the recipes of docs/agents.md with the real CLIs; this keeps the shorter
// examples elsewhere in line): Claude Code's permission mode, standard input that is not a terminal,
// Gemini CLI's trust, Codex CLI's key variable. The recipes themselves parse and name their version.
import { describe, expect, it } from '@jest/globals';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AGENTS, readRecipe } from '../support/agent-recipes.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const FILES = [
  'README.md',
  ...fs
    .readdirSync(path.join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
  ...fs.readdirSync(path.join(ROOT, 'examples')).map((f) => `examples/${f}`),
];

/** Each command that starts an agent CLI, with the text around it (its `env` and the next lines). */
function invocations(pattern: RegExp): Array<{ file: string; text: string }> {
  const found: Array<{ file: string; text: string }> = [];
  for (const file of FILES) {
    const lines = fs.readFileSync(path.join(ROOT, file), 'utf8').split('\n');
    lines.forEach((line, i) => {
      if (pattern.test(line) && !/^\s*(#|<!--|\|)/.test(line) && !line.includes('`'))
        found.push({ file: `${file}:${i + 1}`, text: lines.slice(Math.max(0, i - 8), i + 6).join('\n') });
    });
  }
  return found;
}

describe('agent commands in the docs and examples', () => {
  it('Claude Code: a permission mode or an allowed-tools list, and standard input from a file', () => {
    const found = invocations(/@anthropic-ai\/claude-code\s+-|^\s*claude -p/);
    expect(found.length).toBeGreaterThan(3);
    for (const { file, text } of found) {
      expect({ file, ok: /--permission-mode bypassPermissions|--allowedTools/.test(text) }).toEqual({
        file,
        ok: true,
      });
      expect({ file, ok: /<\s*("\$SANDBOX_PROMPT_FILE"|\/dev\/null)/.test(text) }).toEqual({
        file,
        ok: true,
      });
    }
  });

  it('Gemini CLI: a trusted workspace and the reply folder included', () => {
    for (const { file, text } of invocations(/@google\/gemini-cli\s+-|^\s*gemini --/)) {
      expect({ file, ok: /GEMINI_CLI_TRUST_WORKSPACE=true|--skip-trust/.test(text) }).toEqual({
        file,
        ok: true,
      });
      expect({ file, ok: text.includes('--include-directories') }).toEqual({ file, ok: true });
    }
  });

  it('Codex CLI: its key in CODEX_API_KEY', () => {
    for (const { file, text } of invocations(/@openai\/codex\s+exec|^\s*codex exec/))
      expect({ file, ok: text.includes('CODEX_API_KEY=placeholder') }).toEqual({ file, ok: true });
  });

  it.each(Object.keys(AGENTS) as Array<keyof typeof AGENTS>)(
    'the %s recipe parses and names its version',
    (name) => {
      const recipe = readRecipe(name);
      expect(recipe.testedWith).toMatch(/^\d+\.\d+\.\d+$/);
      expect(recipe.inputs.credentials).toContain(AGENTS[name].apiHost);
      expect(recipe.inputs.command).toContain('$SANDBOX_REPLY_FILE');
    },
  );
});
