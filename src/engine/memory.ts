// Imported first by both entry points (the action, the CLI). A command may print gigabytes: each of its
// lines is a short-lived string, and V8 would grow its young generation to tens of megabytes to hold
// them between collections (measured: a 1 GB output peaked at 128 MB on Node 24, 63 MB with this).
// Keeping the young generation at its start size bounds the step's memory; collections stay cheap.
import * as v8 from 'node:v8';

v8.setFlagsFromString('--semi-space-growth-factor=1');
