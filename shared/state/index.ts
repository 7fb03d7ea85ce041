// The public face of the state feature (state versions, their outputs and backing data), which server and workers call.
export { stateVersionBackingData, purgeStateVersionData } from './backing-data.js';
export {
  acceptStateUpload,
  changeRemoteStateConsumers,
  createStateVersion,
  currentResources,
  remoteStateConsumers,
  rollbackStateVersion,
  type StateUploadKind,
  mayReadOutputsAs,
  outputValue,
} from './commands.js';
export { type BackingDataEvent, servesState } from './machine.js';
export {
  findOutput,
  findStateVersion,
  outputsOf,
  type StateOutputRow,
  stateVersionOrganization,
  type StateVersionRow,
  insertStateVersion,
  parseState,
} from './repo.js';
