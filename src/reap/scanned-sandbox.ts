// What a scan finds: one record per folder or volume, with the facts the decisions need.
import * as path from 'node:path';
import type { EngineCommands } from '../engine/engine-commands.js';
import type { GitCommands } from '../engine/git-commands.js';
import type { HelperImage } from '../engine/helper-image.js';
import type { Sandbox } from '../sandbox/layout.js';
import type { ParentRepository } from '../sandbox/repository.js';
import type { SandboxIdentity } from './decide.js';

export interface ScannedSandbox extends SandboxIdentity {
  /** Set for entries that are not sandboxes. */
  notSandbox?: string;
  /** The parent as the project folder's note or the volume's label names it (it may be gone). */
  parentPath?: string;
  /** The parent, when it is there. */
  parent?: ParentRepository;
  /** Set when the parent is gone or unreadable, or not named at all: git can check nothing. */
  orphan?: string;
  /** The sandbox as run mode places it (live parent, same place): what removal removes. */
  location?: Sandbox;
  /** The parent's records of it: `head` (made), or only `creating` (half-made by a killed run). */
  recorded?: 'head' | 'creating';
  /** The parent is there but holds no record of this sandbox: no check can run. */
  unregistered?: string;
  lastActivityMs?: number;
  /** An activity signal that is a link or no regular file: the sandbox is kept. */
  suspicious?: string;
  /** Volume: its work tree or git folder is missing or no folder. */
  broken?: string;
  /** Volume: its `created` label (epoch ms), an activity signal that never moves. */
  createdMs?: number;
  /** Disk: a linked worktree (its `.git` a file naming its registration in the parent). */
  linked?: LinkedFacts;
  /** Disk: the folder (a real path under the real root) and the command's home. */
  hostPath?: string;
  homePath?: string;
  /** Volume: its name. */
  volume?: string;
  /** Volume: its `branch` label (empty for a transient sandbox), for display: a decision never reads it. */
  branchLabel?: string;
  /** Volume: HEAD as the helper read it (`refs/heads/...`), for display. */
  headRef?: string;
}

export interface LinkedFacts {
  /** `<parent>/.git/worktrees/<id>` as its `.git` file names it. */
  adminDir: string;
  id: string;
  /** Set when the parent registers it, pointing back (verified): its registration goes with it. */
  registered?: { gitdirText: string };
  /** Its registration is locked (`git worktree lock`): kept, as git's own prune keeps it. */
  locked?: boolean;
}

/** The git folder whose HEAD, index and logs are a disk sandbox's: its `.git`, or its registration. */
export function gitDirOf(s: ScannedSandbox): string {
  return s.linked?.registered ? s.linked.adminDir : path.join(s.hostPath!, '.git');
}

/** A sandbox the parent can check: its records (run mode's sandboxes) or its registration (linked). */
export function isCheckable(s: ScannedSandbox): boolean {
  return !s.orphan && !!s.parent && (s.recorded !== undefined || s.linked?.registered !== undefined);
}

export interface ScanResult {
  sandboxes: ScannedSandbox[];
  /** Problems that did not stop the scan (e.g. the container engine could not be asked). */
  warnings: string[];
  /** The real path of the root (disk sandboxes' paths are under it). */
  root: string;
}

export interface ScanOptions {
  worktreeRoot: string;
  volumePrefix: string;
  git: GitCommands;
  /** Undefined: volumes are not scanned. */
  engine?: EngineCommands;
  /** Image of the helper containers that read volumes' activity (made when the first one starts). */
  image: HelperImage;
}

/** Sandbox names as this action makes them: no path separators, never starting with a dot. */
