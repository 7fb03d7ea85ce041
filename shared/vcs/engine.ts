// The worker side of the vcs feature: what runs git (fetching commits, publishing tags, polling
// git servers). Only workers load it; the web process never spawns git.
export { fetchConfigurationVersion } from './fetch.js';
export { publishTaggedVersions } from './publish.js';
export { pollRepositories, pollRepository } from './poll.js';
