// The public face of the configuration-versions feature (configuration versions: their archives as they arrive, their backing data and ingress attributes), which server, workers and other features call.
export { UploadRefused, intakeArchive } from './archive-intake.js';
export {
  archiveFetchedVersion,
  collectOldVersions,
  createWorkspaceCv,
  cvAction,
  failUpload,
  purgeCvData,
  refetchVersion,
} from './commands.js';
export {
  type CvRow,
  findCv,
  findCvWithOrganization,
  findIngress,
  insertCv,
  insertIngress,
  makeCurrent,
  moveCv,
} from './repo.js';
