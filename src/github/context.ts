// The workflow run's context as the runner passes it (GITHUB_* variables and the event payload file): read
// once from the environment into plain data. Pure.
import * as os from 'node:os';
import { apiUrl, type RepositoryName } from './api.js';

export interface ActionContext {
  eventName: string;
  eventPath: string;
  repository: RepositoryName;
  apiUrl: string;
  serverUrl: string;
  runUrl: string;
  runnerTemp: string;
}

export function readActionContext(env: NodeJS.ProcessEnv, payload: unknown = {}): ActionContext {
  const serverUrl = (env.GITHUB_SERVER_URL || 'https://github.com').replace(/\/+$/, '');
  const repository = repositoryName(env.GITHUB_REPOSITORY, payload);
  const full = `${repository.owner}/${repository.repo}`;
  const run = env.GITHUB_RUN_ID ? `/actions/runs/${env.GITHUB_RUN_ID}` : '/actions';
  const attempt = Number(env.GITHUB_RUN_ATTEMPT) > 1 ? `/attempts/${env.GITHUB_RUN_ATTEMPT}` : '';
  return {
    eventName: env.GITHUB_EVENT_NAME ?? '',
    eventPath: env.GITHUB_EVENT_PATH ?? '',
    repository,
    apiUrl: apiUrl(env),
    serverUrl,
    runUrl: `${serverUrl}/${full}${run}${attempt}`,
    runnerTemp: env.RUNNER_TEMP || os.tmpdir(),
  };
}

function repositoryName(value: string | undefined, payload: unknown): RepositoryName {
  const fromPayload = (payload as { repository?: { full_name?: unknown } } | undefined)?.repository
    ?.full_name;
  const full = value || (typeof fromPayload === 'string' ? fromPayload : '');
  const match = /^([A-Za-z0-9_.-]+)\/([A-Za-z0-9_.-]+)$/.exec(full);
  if (!match) throw new Error(`GITHUB_REPOSITORY is ${JSON.stringify(full)}: expected owner/name.`);
  return { owner: match[1], repo: match[2] };
}
