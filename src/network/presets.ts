// The presets a `network` allow-list may name (`@github`...): the one list of their hosts. docs/network.md
// lists them for users; a preset's hosts take the default ports (443 and 80) unless written with one. Each
// model API's preset is in its record (apis/).
import { MODEL_APIS } from './model-apis.js';

export const PRESETS: Readonly<Record<string, readonly string[]>> = {
  // git over HTTPS, the API, raw content, release and artifact downloads, the container registry.
  github: [
    'github.com',
    'api.github.com',
    'codeload.github.com',
    'raw.githubusercontent.com',
    'objects.githubusercontent.com',
    'release-assets.githubusercontent.com',
    'uploads.github.com',
    'ghcr.io',
    'pkg-containers.githubusercontent.com',
  ],
  npm: ['registry.npmjs.org', 'registry.yarnpkg.com'],
  pypi: ['pypi.org', 'files.pythonhosted.org'],
  debian: ['deb.debian.org', 'security.debian.org'],
  ...Object.fromEntries(MODEL_APIS.map((api) => [api.name, api.presetHosts])),
};

export const PRESET_NAMES = Object.keys(PRESETS);
