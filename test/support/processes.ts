// Whether a process runs, for tests that check that a kill reached every program it should.
import * as fs from 'node:fs';

/** Running: it exists and is not a zombie that nobody has reaped yet (its parent was killed too). */
export function processRunning(pid: number): boolean {
  const stat = `/proc/${pid}/stat`;
  if (!fs.existsSync(stat)) return false;
  const state = fs.readFileSync(stat, 'utf8').split(') ')[1]?.[0];
  return !['Z', 'X'].includes(state ?? 'X');
}
