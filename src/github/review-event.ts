// Whether a submitted review asks for a run (`pull_request_review`): the trigger must be the first word of
// the review's body, whole, as for a comment (a quoted line or a code block asks for nothing). Only a
// review as it is submitted counts: an edited or dismissed one starts nothing. Pure decisions from the
// payload and the settings; who asked is the reviewer, gated as a commenter is.
import type { TriggerSettings } from '../settings/settings.js';
import {
  ignore,
  parseTrigger,
  positive,
  PROGRESS_MARKER,
  record,
  text,
  user,
  type EventDecision,
  type Obj,
} from './request.js';

export function decideReview(event: Obj, trigger: TriggerSettings): EventDecision {
  if (event.action !== 'submitted')
    return ignore(`the review was ${text(event.action) || 'changed'}, not submitted`);
  if (!trigger.command) return ignore("review events need the 'trigger' input (such as /fix)");
  const review = record(event.review);
  const body = text(review.body);
  if (body.trimStart().startsWith(PROGRESS_MARKER))
    return ignore('the review is a progress note of this action');
  const parsed = parseTrigger(body, trigger.command);
  if (!parsed) return ignore(`the review's body does not start with ${trigger.command}`);
  const number = positive(record(event.pull_request).number);
  const id = positive(review.id);
  const requester = user(review.user, review.author_association);
  if (!number || !id || !requester)
    return ignore('the review payload lacks the pull request number, review id or author');
  return {
    run: true,
    request: {
      event: 'pull_request_review',
      prNumber: number,
      requester,
      comment: { id, trigger: trigger.command, args: parsed.args },
      review: { id, body, state: text(review.state).toLowerCase(), commitId: text(review.commit_id) },
    },
  };
}
