// The label schema: how everything this project creates in a container engine is named and found again.
export const LABEL_PREFIX = 'worktree-sandbox';
export const MANAGED_LABEL = `${LABEL_PREFIX}.managed`;
export const label = (key: string) => `${LABEL_PREFIX}.${key}`;

/** The labels every sandbox volume carries (the reaper reads them back with `volume ls`). */
export const VOLUME_LABEL_KEYS = ['project', 'sandbox', 'kind', 'branch', 'parent', 'created'].map(label);

export interface VolumeLabelFacts {
  project: string;
  name: string;
  kind: string;
  branch: string;
  parentPath: string;
}

export function volumeLabels(facts: VolumeLabelFacts, now: Date = new Date()): Record<string, string> {
  return {
    [MANAGED_LABEL]: 'true',
    [label('project')]: facts.project,
    [label('sandbox')]: facts.name,
    [label('kind')]: facts.kind,
    [label('branch')]: facts.branch,
    [label('parent')]: facts.parentPath,
    [label('created')]: now.toISOString().replace(/\.\d{3}Z$/, 'Z'),
  };
}

/** Labels of a command container: how a later run finds the container of a run that was killed. */
export function commandLabels(sandbox: { project: string; name: string }): Record<string, string> {
  return {
    [label('role')]: 'command',
    [label('project')]: sandbox.project,
    [label('sandbox')]: sandbox.name,
  };
}

export const HELPER_LABELS: Record<string, string> = { [label('role')]: 'helper' };

/**
 * Labels of a helper container working on one sandbox: a step that was killed while one ran finds it
 * again (the post step removes it), and a test can tell that none was left.
 */
export function sandboxHelperLabels(sandbox: { project: string; name: string }): Record<string, string> {
  return { ...HELPER_LABELS, [label('project')]: sandbox.project, [label('sandbox')]: sandbox.name };
}
