// The pull-request inputs (`pull-request`, its title, body, draft and labels). Pure.
import { boolean, CONTROL, InputError, type InputReader } from './inputs.js';

export interface PullRequestSettings {
  open: boolean;
  title: string;
  body: string;
  draft: boolean;
  labels: string[];
}

export function pullRequestInputs(read: InputReader): PullRequestSettings {
  const open = boolean(read, 'pull-request');
  if (open && !boolean(read, 'push'))
    throw new InputError(
      'pull-request',
      'true',
      'true only with push: true (a pull request needs a pushed branch)',
    );
  const title = read('pull-request-title').trim();
  if (CONTROL.test(title) || title.length > 256)
    throw new InputError('pull-request-title', title, 'one line of at most 256 characters');
  const body = read('pull-request-body');
  if (body.length > 60000)
    throw new InputError('pull-request-body', `${body.slice(0, 40)}...`, 'at most 60000 characters');
  const labels = read('pull-request-labels')
    .split(/[,\n]/)
    .map((l) => l.trim())
    .filter(Boolean);
  for (const label of labels)
    if (CONTROL.test(label) || label.length > 50)
      throw new InputError(
        'pull-request-labels',
        label,
        'label names of at most 50 characters, separated by commas or newlines',
      );
  return {
    open,
    title,
    body,
    draft: boolean(read, 'pull-request-draft'),
    labels: [...new Set(labels)],
  };
}
