// The reaper's public face, for the action and a CLI alike.
export { reap, type ReapOptions, type ReapResult, type ReportedSandbox } from './reap.js';
export { scanSandboxes, type ScannedSandbox, type ScanResult } from './scan.js';
export { decide, assessStaleness, type Decision, type SandboxFacts, type DecisionPolicy } from './decide.js';
export { applyGates, type GateFacts, type WorkFinding } from './gates.js';
export { retentionClass, expiryDays, DEFAULT_RETENTION, type RetentionPolicy } from './retention.js';
export { removeSandboxTree } from './remove.js';
export { summaryMarkdown, toRecord, isReaped, jsonWithin, formatBytes, type ReapRecord } from './report.js';
