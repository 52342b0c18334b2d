// The reaper's public face, for the action and a CLI alike.
export { reap, reapOptionsFrom, type ReapOptions, type ReapResult, type ReportedSandbox } from './reap.js';
export { scanSandboxes, type ScannedSandbox, type ScanResult } from './scan.js';
export {
  decide,
  decideOnRequest,
  gateFactsOf,
  assessStaleness,
  type Decision,
  type SandboxFacts,
  type DecisionPolicy,
} from './decide.js';
export { applyGates, type GateFacts, type WorkFinding } from './gates.js';
export { retentionClass, expiryDays, DEFAULT_RETENTION, type RetentionPolicy } from './retention.js';
export { removeSandboxTree } from './remove.js';
export { summaryMarkdown, toRecord, isReaped, jsonWithin, formatBytes, type ReapRecord } from './report.js';
export { survey, type Survey, type SurveyedSandbox, type SurveyOptions } from './survey.js';
export {
  sandboxState,
  removalOutlook,
  type SandboxState,
  type StateView,
  type RemovalOutlook,
} from './outlook.js';
export {
  removeByName,
  matchSandbox,
  type RemoveByNameOptions,
  type RemoveByNameResult,
  type SandboxQuery,
} from './remove-by-name.js';
