// bottleneck ships types for its main entry only; its light build (no Redis clustering, what the Octokit
// plugins use) has the same API.
declare module 'bottleneck/light.js' {
  import Bottleneck from 'bottleneck';
  export default Bottleneck;
}
