export const id = 760;
export const ids = [760];
export const modules = {

/***/ 2760:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   createRunCa: () => (/* binding */ createRunCa)
/* harmony export */ });
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(7598);
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_crypto__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var node_util__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(7975);
/* harmony import */ var node_util__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__webpack_require__.n(node_util__WEBPACK_IMPORTED_MODULE_1__);
/* harmony import */ var node_forge__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(8542);
/* harmony import */ var node_forge__WEBPACK_IMPORTED_MODULE_2___default = /*#__PURE__*/__webpack_require__.n(node_forge__WEBPACK_IMPORTED_MODULE_2__);
// A certificate authority made for one run, so that the proxy can read the requests it must add a
// credential to. Its private key lives in this process only and is never written anywhere; the container
// gets its certificate only. Each host with a credential gets a leaf certificate, made once. Keys come
// from Node's crypto, off the main thread (an RSA key takes tens to hundreds of milliseconds, which the
// run's start-up spends on other work meanwhile); node-forge builds the certificates, Node's RSA signs them.



const DAY_MS = 24 * 3600_000;
const generateRsa = (0,node_util__WEBPACK_IMPORTED_MODULE_1__.promisify)(node_crypto__WEBPACK_IMPORTED_MODULE_0__.generateKeyPair);
async function keyPair() {
    const { privateKey, publicKey } = await generateRsa('rsa', {
        modulusLength: 2048,
        publicKeyEncoding: { type: 'spki', format: 'pem' },
        privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    });
    return { publicKey: node_forge__WEBPACK_IMPORTED_MODULE_2___default().pki.publicKeyFromPem(publicKey), pem: privateKey };
}
/** DER of a SHA-256 DigestInfo up to the digest itself (RFC 8017, EMSA-PKCS1-v1_5). */
const SHA256_DIGEST_INFO = Buffer.from('3031300d060960864801650304020105000420', 'hex');
/**
 * A signer for node-forge's `certificate.sign`, which hands it the SHA-256 digest of the certificate:
 * RSASSA-PKCS1-v1_5 by Node's native RSA (a private-key operation on the DigestInfo with PKCS#1 type 1
 * padding, what forge's own JavaScript RSA would do, several times slower).
 */
function nativeSigner(privateKeyPem) {
    const sign = (md) => (0,node_crypto__WEBPACK_IMPORTED_MODULE_0__.privateEncrypt)({ key: privateKeyPem, padding: node_crypto__WEBPACK_IMPORTED_MODULE_0__.constants.RSA_PKCS1_PADDING }, Buffer.concat([SHA256_DIGEST_INFO, Buffer.from(md.digest().getBytes(), 'binary')])).toString('binary');
    return { sign };
}
function serial() {
    const bytes = (0,node_crypto__WEBPACK_IMPORTED_MODULE_0__.randomBytes)(16);
    bytes[0] &= 0x7f; // positive
    return bytes.toString('hex');
}
function validity(cert) {
    // From an hour back (a container's clock may differ a little), for a day: a run never needs more.
    cert.validity.notBefore = new Date(Date.now() - 3600_000);
    cert.validity.notAfter = new Date(Date.now() + DAY_MS);
}
async function createRunCa() {
    const keys = await keyPair();
    const ca = node_forge__WEBPACK_IMPORTED_MODULE_2___default().pki.createCertificate();
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
    ca.sign(signer, node_forge__WEBPACK_IMPORTED_MODULE_2___default().md.sha256.create());
    const leaves = new Map();
    const makeLeaf = async (host) => {
        const leafKeys = await keyPair();
        const cert = node_forge__WEBPACK_IMPORTED_MODULE_2___default().pki.createCertificate();
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
        cert.sign(signer, node_forge__WEBPACK_IMPORTED_MODULE_2___default().md.sha256.create());
        return { key: leafKeys.pem, cert: node_forge__WEBPACK_IMPORTED_MODULE_2___default().pki.certificateToPem(cert) };
    };
    return {
        certificate: node_forge__WEBPACK_IMPORTED_MODULE_2___default().pki.certificateToPem(ca),
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


/***/ })

};
