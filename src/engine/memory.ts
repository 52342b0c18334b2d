// Imported first by both entry points (the action, the CLI). A command may print gigabytes: each of its
// lines is a short-lived string, and V8 would grow its young generation to tens of megabytes to hold
// them between collections, about doubling the step's peak (ADR 0007). Keeping the young generation at its
// start size bounds the step's memory; collections stay cheap.
import * as v8 from 'node:v8';

v8.setFlagsFromString('--semi-space-growth-factor=1');

/** The young generation's size now (V8's `new_space`). */
export function youngGenerationBytes(): number {
  return v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.space_size ?? 0;
}
