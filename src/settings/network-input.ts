// `network` and `credentials`, read together: the allow-list, its presets and the credentials the proxy
// sets (src/network/policy.ts parses; this turns its refusals into InputErrors naming the input).
import { parseCredentials, parseNetwork, PolicyError, type NetworkPolicy } from '../network/policy.js';
import { InputError, type InputReader } from './inputs.js';

export function networkInput(read: InputReader): NetworkPolicy {
  try {
    return parseCredentials(read('credentials'), parseNetwork(read('network')));
  } catch (error) {
    if (error instanceof PolicyError) throw new InputError(error.input, error.value, error.accepted);
    throw error;
  }
}
