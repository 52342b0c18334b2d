// An allow-list policy whose proxy sets one credential (an Authorization header for api.example.com): a
// secret the specs of the redaction and of the terminal's masks expect hidden in every form.
import type { NetworkPolicy } from '../../src/network/policy.js';

export function credentialPolicy(value: string): Extract<NetworkPolicy, { mode: 'allow' }> {
  return {
    mode: 'allow',
    rules: [],
    credentials: [{ host: 'api.example.com', scheme: 'https', ports: [443], header: 'Authorization', value }],
  };
}
