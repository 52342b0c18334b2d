// Placeholder replaced by the reap mode (issue 3).
import type { ReapSettings } from './settings.js';

export async function reapAction(_settings: ReapSettings): Promise<void> {
  throw new Error('mode: reap is not implemented yet.');
}
