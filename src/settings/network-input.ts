// `network`, `credentials` and the model budget, read together: the allow-list, its presets, the
// credentials the proxy sets and the limits it enforces (src/network/policy.ts parses; this turns its
// refusals into InputErrors naming the input). The budget is the proxy's: without one, it is refused.
import { parseCredentials, parseNetwork, PolicyError, type NetworkPolicy } from '../network/policy.js';
import { InputError, number, type InputReader } from './inputs.js';

const LIMITS = ['max-model-requests', 'max-model-tokens'] as const;

export function networkInput(read: InputReader): NetworkPolicy {
  let policy: NetworkPolicy;
  try {
    policy = parseCredentials(read('credentials'), parseNetwork(read('network')));
  } catch (error) {
    if (error instanceof PolicyError) throw new InputError(error.input, error.value, error.accepted);
    throw error;
  }
  const [maxRequests, maxTokens] = LIMITS.map((name) => number(read, name, { min: 0, integer: true }));
  if (maxRequests === 0 && maxTokens === 0) return policy;
  if (policy.mode === 'bridge' || policy.mode === 'none') {
    const set = maxRequests > 0 ? LIMITS[0] : LIMITS[1];
    throw new InputError(
      set,
      read(set).trim(),
      `0 (no limit), or a limit with an allow-list or audit in network (it is ${policy.mode}): the proxy is what counts`,
    );
  }
  return { ...policy, modelLimits: { maxRequests, maxTokens } };
}
