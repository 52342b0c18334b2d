// A certificate authority made for one run, so that the proxy can read the requests it must add a
// credential to. Its private key lives in this process only and is never written anywhere; the container
// gets its certificate only. Each host with a credential gets a leaf certificate. Keys come from Node's
// crypto; node-forge builds and signs the certificates.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import forge from 'node-forge';

const DAY_MS = 24 * 3600_000;

export interface RunCa {
  /** PEM: what the container trusts. */
  certificate: string;
  /** A key and certificate (PEM) for `host`, signed by this CA. */
  leaf(host: string): Promise<{ key: string; cert: string }>;
}

function keyPair(): {
  privateKey: forge.pki.rsa.PrivateKey;
  publicKey: forge.pki.rsa.PublicKey;
  pem: string;
} {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return {
    privateKey: forge.pki.privateKeyFromPem(privateKey) as forge.pki.rsa.PrivateKey,
    publicKey: forge.pki.publicKeyFromPem(publicKey) as forge.pki.rsa.PublicKey,
    pem: privateKey,
  };
}

function serial(): string {
  const bytes = randomBytes(16);
  bytes[0] &= 0x7f; // positive
  return bytes.toString('hex');
}

function validity(cert: forge.pki.Certificate): void {
  // From an hour back (a container's clock may differ a little), for a day: a run never needs more.
  cert.validity.notBefore = new Date(Date.now() - 3600_000);
  cert.validity.notAfter = new Date(Date.now() + DAY_MS);
}

export async function createRunCa(): Promise<RunCa> {
  const keys = keyPair();
  const ca = forge.pki.createCertificate();
  ca.publicKey = keys.publicKey;
  ca.serialNumber = serial();
  validity(ca);
  const name = [{ name: 'commonName', value: `worktree-sandbox proxy CA ${serial().slice(0, 8)}` }];
  ca.setSubject(name);
  ca.setIssuer(name);
  ca.setExtensions([
    { name: 'basicConstraints', cA: true, pathLenConstraint: 0, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  ca.sign(keys.privateKey, forge.md.sha256.create());
  return {
    certificate: forge.pki.certificateToPem(ca),
    async leaf(host) {
      const leafKeys = keyPair();
      const cert = forge.pki.createCertificate();
      cert.publicKey = leafKeys.publicKey;
      cert.serialNumber = serial();
      validity(cert);
      cert.setSubject([{ name: 'commonName', value: host }]);
      cert.setIssuer(ca.subject.attributes);
      cert.setExtensions([
        { name: 'basicConstraints', cA: false, critical: true },
        { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
        { name: 'extKeyUsage', serverAuth: true },
        { name: 'subjectAltName', altNames: [{ type: 2, value: host }] },
        { name: 'authorityKeyIdentifier', keyIdentifier: ca.generateSubjectKeyIdentifier().getBytes() },
      ]);
      cert.sign(keys.privateKey, forge.md.sha256.create());
      return { key: leafKeys.pem, cert: forge.pki.certificateToPem(cert) };
    },
  };
}
