// A certificate authority made for one run, so that the proxy can read the requests it must add a
// credential to. Its private key lives in this process only and is never written anywhere; the container
// gets its certificate only. Each host with a credential gets a leaf certificate, made once. Keys come
// from Node's crypto, off the main thread (an RSA key takes tens to hundreds of milliseconds, which the
// run's start-up spends on other work meanwhile); node-forge builds the certificates, Node's RSA signs them.
import { constants, generateKeyPair, privateEncrypt, randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import forge from 'node-forge';

const DAY_MS = 24 * 3600_000;

export interface RunCa {
  /** PEM: what the container trusts. */
  certificate: string;
  /** A key and certificate (PEM) for `host`, signed by this CA; made on the first call for that host. */
  leaf(host: string): Promise<{ key: string; cert: string }>;
}

const generateRsa = promisify(generateKeyPair);

async function keyPair(): Promise<{ publicKey: forge.pki.rsa.PublicKey; pem: string }> {
  const { privateKey, publicKey } = await generateRsa('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return { publicKey: forge.pki.publicKeyFromPem(publicKey) as forge.pki.rsa.PublicKey, pem: privateKey };
}

/** DER of a SHA-256 DigestInfo up to the digest itself (RFC 8017, EMSA-PKCS1-v1_5). */
const SHA256_DIGEST_INFO = Buffer.from('3031300d060960864801650304020105000420', 'hex');

/**
 * A signer for node-forge's `certificate.sign`, which hands it the SHA-256 digest of the certificate:
 * RSASSA-PKCS1-v1_5 by Node's native RSA (a private-key operation on the DigestInfo with PKCS#1 type 1
 * padding, what forge's own JavaScript RSA would do, several times slower).
 */
function nativeSigner(privateKeyPem: string): forge.pki.rsa.PrivateKey {
  const sign = (md: forge.md.MessageDigest) =>
    privateEncrypt(
      { key: privateKeyPem, padding: constants.RSA_PKCS1_PADDING },
      Buffer.concat([SHA256_DIGEST_INFO, Buffer.from(md.digest().getBytes(), 'binary')]),
    ).toString('binary');
  return { sign } as unknown as forge.pki.rsa.PrivateKey;
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
  const keys = await keyPair();
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
  const signer = nativeSigner(keys.pem);
  ca.sign(signer, forge.md.sha256.create());
  const leaves = new Map<string, Promise<{ key: string; cert: string }>>();
  const makeLeaf = async (host: string) => {
    const leafKeys = await keyPair();
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
    cert.sign(signer, forge.md.sha256.create());
    return { key: leafKeys.pem, cert: forge.pki.certificateToPem(cert) };
  };
  return {
    certificate: forge.pki.certificateToPem(ca),
    leaf(host) {
      let made = leaves.get(host);
      if (!made) {
        made = makeLeaf(host);
        made.catch(() => leaves.delete(host)); // a failure is not kept: the next call tries again
        leaves.set(host, made);
      }
      return made;
    },
  };
}
