// Who may have made a change a check found. Checks run only when a guard opens or closes, so a change
// found at one was made since the previous check, while the same guards were open: their commands are the
// suspects, and nothing can tell them apart. Each suspect's run reports the change; when there were others,
// the report says so rather than blame one command for another's doing. (A guard opening is no suspect:
// its container has not started.)

export interface CheckEvent {
  kind: 'prepare' | 'open' | 'close' | 'check' | 'recover';
  /** The sandbox whose guard the check was made for. */
  sandbox: string;
}

/** `violation` as the run of sandbox `reader` reports it. Pure. */
export function attribute(violation: string, reader: string, suspects: string[], at: CheckEvent): string {
  const others = suspects.filter((s) => s !== reader);
  const found =
    at.sandbox === reader
      ? ''
      : {
          prepare: ` (found when another run on this repository began)`,
          open: ` (found when the command of sandbox ${at.sandbox} was about to start)`,
          close: ` (found when the command of sandbox ${at.sandbox} had ended)`,
          check: ` (found when the command of sandbox ${at.sandbox} had ended)`,
          recover: ` (found when the interrupted run of sandbox ${at.sandbox} was finished)`,
        }[at.kind];
  const also = others.length
    ? `; the command${others.length > 1 ? 's' : ''} of sandbox${others.length > 1 ? 'es' : ''} ${others.join(', ')} ran at the same time and may have made this change instead`
    : '';
  return `${violation}${found}${also}`;
}
