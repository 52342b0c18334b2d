// ts-jest in ESM mode, transpile-only (isolatedModules): `npm run typecheck` is the type check.
const tsJest = ['ts-jest', { useESM: true, diagnostics: false }];
const common = {
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: { '^.+\\.ts$': tsJest },
  testEnvironment: 'node',
  // The benchmarks' cache holds generated and cloned repositories (thousands of files, other package.json).
  // test/node24 holds a Node.js installation (headers, docs): nothing for Jest to crawl.
  modulePathIgnorePatterns: ['<rootDir>/.bench/', '<rootDir>/test/node24/'],
};
// Specs that judge output with what only the set-up installs (cmark-gfm, GitHub's Markdown renderer): they
// run in the integration lane, so that `npm run test:unit` needs nothing but node_modules and git
// (test/unit/unit-lane.test.ts keeps every other spec free of it).
export const NEEDS_SETUP = [
  'src/ui/untrusted-markdown.spec.ts',
  'src/present/step-summary.spec.ts',
  'src/ui/markdown.spec.ts',
  'src/present/progress-comment.spec.ts',
];
export default {
  // Integration and end-to-end tests start real containers; unit tests finish far below this.
  testTimeout: 240000,
  projects: [
    {
      ...common,
      displayName: 'unit',
      testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/unit/**/*.test.ts'],
      testPathIgnorePatterns: ['/node_modules/', ...NEEDS_SETUP.map((file) => `<rootDir>/${file}`)],
    },
    {
      ...common,
      displayName: 'integration',
      testMatch: [
        '<rootDir>/test/integration/**/*.test.ts',
        ...NEEDS_SETUP.map((file) => `<rootDir>/${file}`),
      ],
    },
    { ...common, displayName: 'e2e', testMatch: ['<rootDir>/test/e2e/**/*.test.ts'] },
    // Live attacks on the sandbox boundary (docs/security-model.md), through the bundle as the runner user.
    { ...common, displayName: 'security', testMatch: ['<rootDir>/test/security/**/*.test.ts'] },
    { ...common, displayName: 'cli', testMatch: ['<rootDir>/test/cli/**/*.test.ts'] },
  ],
};
