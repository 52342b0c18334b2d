// Typed fakes of the two interfaces every layer above engine/ holds (EngineCommands, GitCommands), as
// actions/checkout fakes its IGitCommandManager: every method a `jest.fn()`, so a spec gives the answers it
// needs (`engine.listContainers.mockResolvedValue(...)`) and reads what was asked (`.mock.calls`). A method
// no answer was given for fails the test that reaches it; a method added to an interface is a type error
// here, not a cast that hides it.
import { jest } from '@jest/globals';
import type { EngineCommands } from '../../src/engine/engine-commands.js';
import type { EngineName } from '../../src/engine/engine-name.js';
import type { GitCommands } from '../../src/engine/git-commands.js';

/** A method that fails whoever calls it: a rejected promise (every method but the few synchronous ones). */
const refuse = (what: string) => () => Promise.reject(new Error(`${what} was not expected`));
const refuseNow = (what: string) => (): never => {
  throw new Error(`${what} was not expected`);
};

/** An engine that answers nothing until told (`what` names it in the failure: "the engine"). */
export function fakeEngine(name: EngineName = 'docker', what = 'the engine'): jest.Mocked<EngineCommands> {
  const no = (method: string) => refuse(`${what}'s ${method}`);
  return {
    name,
    initArgs: name === 'docker' ? ['--init'] : [],
    // Docker's answers without asking the engine (engine.ts); Podman's must be given.
    mode: jest.fn<EngineCommands['mode']>(name === 'docker' ? () => undefined : refuseNow(`${what}'s mode`)),
    hostView: jest.fn<EngineCommands['hostView']>(no('hostView')),
    bindSource: jest.fn<EngineCommands['bindSource']>(no('bindSource')),
    runArgs: jest.fn<EngineCommands['runArgs']>(no('runArgs')),
    exec: jest.fn<EngineCommands['exec']>(no('exec')),
    stream: jest.fn<EngineCommands['stream']>(no('stream')),
    runHelper: jest.fn<EngineCommands['runHelper']>(no('runHelper')),
    stopContainer: jest.fn<EngineCommands['stopContainer']>(no('stopContainer')),
    run: jest.fn<EngineCommands['run']>(no('run')),
    failure: jest.fn<EngineCommands['failure']>(refuseNow(`${what}'s failure`)),
    inspectImage: jest.fn<EngineCommands['inspectImage']>(no('inspectImage')),
    ensureImage: jest.fn<EngineCommands['ensureImage']>(no('ensureImage')),
    volumeExists: jest.fn<EngineCommands['volumeExists']>(no('volumeExists')),
    createVolume: jest.fn<EngineCommands['createVolume']>(no('createVolume')),
    removeVolume: jest.fn<EngineCommands['removeVolume']>(no('removeVolume')),
    containerState: jest.fn<EngineCommands['containerState']>(no('containerState')),
    containerExists: jest.fn<EngineCommands['containerExists']>(no('containerExists')),
    listContainers: jest.fn<EngineCommands['listContainers']>(no('listContainers')),
    logTail: jest.fn<EngineCommands['logTail']>(no('logTail')),
    removeContainer: jest.fn<EngineCommands['removeContainer']>(no('removeContainer')),
    killContainer: jest.fn<EngineCommands['killContainer']>(no('killContainer')),
    removeContainersLabelled: jest.fn<EngineCommands['removeContainersLabelled']>(
      no('removeContainersLabelled'),
    ),
  };
}

/** git that answers nothing until told (`what` names it in the failure: "git"). */
export function fakeGit(what = 'git'): jest.Mocked<GitCommands> {
  const no = (method: string) => refuse(`${what}'s ${method}`);
  return {
    exec: jest.fn<GitCommands['exec']>(no('exec')),
    run: jest.fn<GitCommands['run']>(no('run')),
    stream: jest.fn<GitCommands['stream']>(no('stream')),
    objectReader: jest.fn<GitCommands['objectReader']>(no('objectReader')),
    readSmallObjects: jest.fn<GitCommands['readSmallObjects']>(no('readSmallObjects')),
    scriptEnv: jest.fn<GitCommands['scriptEnv']>(refuseNow(`${what}'s scriptEnv`)),
    isValidBranchName: jest.fn<GitCommands['isValidBranchName']>(no('isValidBranchName')),
    refExists: jest.fn<GitCommands['refExists']>(no('refExists')),
    readRefs: jest.fn<GitCommands['readRefs']>(no('readRefs')),
    resolveCommit: jest.fn<GitCommands['resolveCommit']>(no('resolveCommit')),
    fetchCommit: jest.fn<GitCommands['fetchCommit']>(no('fetchCommit')),
    remoteUrl: jest.fn<GitCommands['remoteUrl']>(no('remoteUrl')),
  };
}
