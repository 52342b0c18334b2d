// `worktree-sandbox rm NAME`: one sandbox removed with the reaper's gates. `--force` lifts the work gate
// (never the in-use gate); whatever a removal would lose (the work, or an orphan's files) is saved first,
// under `--archive-dir` or a private folder in the temp dir, and the files are named in the output.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { removeByName, type JudgedSandbox, type UnmatchedName } from './remove-by-name.js';
import { formatBytes } from '../reap/reap-report.js';
import { reapOptionsFrom } from '../reap/reap.js';
import type { ReapSettings, Isolation } from '../settings/settings.js';
import { CliExit, EXIT } from './exit-codes.js';
import { terminalUi } from './terminal-ui.js';

export interface RmRequest {
  name: string;
  project?: string;
  isolation?: Isolation;
  json: boolean;
}

export async function rmCommand(settings: ReapSettings, request: RmRequest): Promise<void> {
  const ui = terminalUi({ quiet: true, spinner: true });
  // A dry run creates nothing, not even the default archive folder.
  const archiveDir = settings.archiveDir || (settings.dryRun ? defaultArchivePath() : defaultArchiveDir());
  const { name, project, isolation } = request;
  const result = await removeByName(
    { ...reapOptionsFrom(settings), name, project, isolation, archiveDir },
    ui,
  );
  for (const warning of result.warnings) ui.warning(warning);
  if (result.status === 'not found' || result.status === 'ambiguous')
    throw unmatched(result as UnmatchedName, request, settings);
  const judged = result as JudgedSandbox;
  const { sandbox, decision, outcome } = judged;
  const what = `${sandbox.project}/${sandbox.sandbox} (${sandbox.isolation === 'disk' ? sandbox.where : `volume ${sandbox.where}`})`;
  const archived = outcome?.archived ?? [];
  if (request.json)
    process.stdout.write(
      `${JSON.stringify(
        {
          status: judged.status,
          dryRun: settings.dryRun,
          project: sandbox.project,
          sandbox: sandbox.sandbox,
          isolation: sandbox.isolation,
          where: sandbox.where,
          reason: decision.reason,
          sizeBytes: decision.sizeBytes ?? null,
          detail: outcome?.detail ?? null,
          archived,
          freedBytes: outcome?.freedBytes ?? 0,
          problems: outcome?.problems ?? [],
        },
        null,
        2,
      )}\n`,
    );

  switch (judged.status) {
    case 'would remove':
      if (!request.json)
        process.stdout.write(
          `Would remove ${what}: ${decision.reason}` +
            (decision.sizeBytes === undefined ? '' : `; ${formatBytes(decision.sizeBytes)} would be freed`) +
            '.\n' +
            (decision.archive
              ? `Would save first: ${decision.archive === 'work' ? 'its work' : 'its files'} under ${path.join(archiveDir, sandbox.project)}\n`
              : '') +
            'Dry run: nothing removed.\n',
        );
      return;
    case 'removed':
      if (!request.json)
        process.stdout.write(
          `Removed ${what}: ${decision.reason}; ${formatBytes(outcome!.freedBytes)} freed.\n` +
            (archived.length ? `Saved first: ${archived.join(', ')}\n` : ''),
        );
      return;
    case 'kept':
      throw new CliExit(`kept ${what}: ${decision.reason}${hint(judged)}`, EXIT.refused);
    case 'skipped':
      throw new CliExit(`kept ${what}: ${outcome!.detail}`, EXIT.refused);
    default:
      throw new CliExit(
        `${outcome!.status} ${what}: ${outcome!.detail ?? ''}${outcome!.problems
          .slice(0, 3)
          .map((p) => `; ${p.path} (${p.error})`)
          .join('')}${archived.length ? `; saved first: ${archived.join(', ')}` : ''}`,
        EXIT.error,
      );
  }
}

function unmatched(result: UnmatchedName, request: RmRequest, settings: ReapSettings): CliExit {
  if (result.status === 'not found')
    return new CliExit(
      `no sandbox named ${JSON.stringify(request.name)}${request.project ? ` in project ${request.project}` : ''} under ${settings.worktreeRoot} or in volumes ${settings.volumePrefix}-* (see: worktree-sandbox list)`,
      EXIT.error,
    );
  const names = result.candidates.map(
    (c) => `${c.project}/${c.sandbox} (${c.isolation === 'disk' ? 'disk' : 'volume'})`,
  );
  // Two of one project differ only by isolation.
  const sameProject = new Set(result.candidates.map((c) => c.project)).size < result.candidates.length;
  return new CliExit(
    `${JSON.stringify(request.name)} is ambiguous: it names ${names.join(', ')}; say which with --project${sameProject ? ' and --isolation' : ''}`,
    EXIT.usage,
  );
}

function hint(result: JudgedSandbox): string {
  const work = result.facts.work?.state;
  if (result.facts.inUse || result.facts.notSandbox) return '';
  if (work === 'work' || work === 'unknown')
    return ' (--force removes it all the same, the work saved first under --archive-dir)';
  return '';
}

const defaultArchivePath = () =>
  path.join(os.tmpdir(), `worktree-sandbox-archive-${process.getuid?.() ?? 'user'}`);

/**
 * `<tmp>/worktree-sandbox-archive-<uid>`, made private; refused when it is anything but our own folder
 * (another user could have planted a link there in a shared temp dir).
 */
export function defaultArchiveDir(): string {
  const dir = defaultArchivePath();
  try {
    fs.mkdirSync(dir, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const st = fs.lstatSync(dir);
  if (!st.isDirectory() || (process.getuid && st.uid !== process.getuid()))
    throw new CliExit(`${dir} is not a folder of yours: name another with --archive-dir`, EXIT.error);
  return dir;
}
