// Every agent command the docs and examples show carries what its CLI needs to do anything unattended
// (test/e2e/agents/ runs the recipes of docs/agents.md with the real CLIs; this keeps the shorter
// examples elsewhere in line): Claude Code's permission mode, standard input that is not a terminal,
// Gemini CLI's trust, Codex CLI's key variable. The recipes themselves parse and name their version, each
// resume recipe resumes, and scripts/agent-tested.mjs writes a "Tested with" line that they read back.
import { describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AGENTS, AGENTS_DOC, readRecipe, readResumeCommand } from '../support/agent-recipes.js';

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
    for (const { file, text } of invocations(/@google\/gemini-cli\s+-|^\s*gemini (\$resume )?--/)) {
      // A resume recipe takes its recipe's env.
      const trust = /GEMINI_CLI_TRUST_WORKSPACE=true|--skip-trust|<!-- recipe: gemini-cli-resume -->/;
      expect({ file, ok: trust.test(text) }).toEqual({
        file,
        ok: true,
      });
      expect({ file, ok: text.includes('--include-directories') }).toEqual({ file, ok: true });
    }
  });

  it("Codex CLI: its key in CODEX_API_KEY (a resume recipe takes its recipe's env)", () => {
    for (const { file, text } of invocations(/@openai\/codex\s+exec|^\s*codex exec/))
      expect({
        file,
        ok: text.includes('CODEX_API_KEY=placeholder') || text.includes('<!-- recipe: codex-resume -->'),
      }).toEqual({ file, ok: true });
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

  it.each([
    ['claude-code', /claude -p \$resume/, /resume=--continue/],
    ['codex', /codex exec \$resume/, /resume='resume --last'/],
    ['gemini-cli', /gemini \$resume/, /resume='--resume latest'/],
  ] as const)('the %s resume recipe resumes when its HOME holds a session', (name, runs, resumes) => {
    const command = readResumeCommand(name);
    expect(command).toMatch(runs);
    expect(command).toMatch(resumes);
    expect(command).toContain('$SANDBOX_REPLY_FILE');
    expect(command).toContain('"$SANDBOX_PROMPT_FILE"');
  });

  it('scripts/agent-tested.mjs writes the "Tested with" line from a recorded result, and the tests read it', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wts-agent-tested-'));
    try {
      const doc = path.join(dir, 'agents.md');
      fs.copyFileSync(AGENTS_DOC, doc);
      fs.mkdirSync(path.join(dir, 'tested'));
      const result = {
        cli: 'gemini-cli',
        package: '@google/gemini-cli',
        version: '9.8.7',
        date: '2031-02-03',
      };
      fs.writeFileSync(path.join(dir, 'tested/gemini-cli.json'), JSON.stringify(result));
      const said = execFileSync(
        process.execPath,
        ['scripts/agent-tested.mjs', '--results', path.join(dir, 'tested'), '--doc', doc],
        { encoding: 'utf8', timeout: 30_000 },
      );
      expect(said).toContain('gemini-cli: Tested with 9.8.7 on 2031-02-03');
      expect(said).toMatch(/claude-code: no result/);
      const written = fs.readFileSync(doc, 'utf8');
      expect(readRecipe('gemini-cli', written).testedWith).toBe('9.8.7');
      expect(written).toMatch(/Tested\s+with\s+9\.8\.7\s+on\s+2031-02-03\./);
      // The others, with no result, are as they were; nothing else of the page changed.
      for (const name of ['claude-code', 'codex'] as const)
        expect(readRecipe(name, written).testedWith).toBe(readRecipe(name).testedWith);
      const before = fs.readFileSync(AGENTS_DOC, 'utf8').split('\n');
      const changed = written.split('\n').filter((line, i) => line !== before[i]);
      expect(changed).toHaveLength(1);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
