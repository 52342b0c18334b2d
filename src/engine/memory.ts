// Imported first by both entry points (the action, the CLI). A command may print gigabytes: each of its
// lines is a short-lived string, and V8 would grow its young generation to tens of megabytes to hold
// them between collections, about doubling the step's peak (ADR 0007). Keeping the young generation at its
// start size bounds the step's memory; collections stay cheap.
import * as v8 from 'node:v8';

v8.setFlagsFromString('--semi-space-growth-factor=1');

/** How far letYoungGenerationGrow lets the young generation grow (V8 doubles it at each step). */
export const GROWN_YOUNG_BYTES = 8 * 1024 * 1024;

/**
 * The young generation may grow again, twice its size at a time as V8 grows it by default, until it
 * holds GROWN_YOUNG_BYTES, then stays at that size: looked at after each collection that V8 reports
 * (a step or two past the bound at most, when a long synchronous stretch holds the reports back). For
 * work whose short-lived objects come in bounded numbers and whose collections would otherwise cost much
 * of its time: a reap allocates a `Stats` per file it looks at. Growing to this bound and no further
 * nearly halves the time such a reap spends collecting, for a few megabytes more at the peak (ADR 0007;
 * src/reap/reap.ts says when).
 */
export function letYoungGenerationGrow(): void {
  v8.setFlagsFromString('--semi-space-growth-factor=2');
  // Loaded here, not at every start (run mode never needs it).
  const { PerformanceObserver } = process.getBuiltinModule('node:perf_hooks');
  const watch = new PerformanceObserver(() => {
    if (youngGenerationBytes() < GROWN_YOUNG_BYTES) return;
    v8.setFlagsFromString('--semi-space-growth-factor=1');
    watch.disconnect();
  });
  watch.observe({ entryTypes: ['gc'] });
}

/** The young generation's size now (V8's `new_space`). */
export function youngGenerationBytes(): number {
  return v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.space_size ?? 0;
}
