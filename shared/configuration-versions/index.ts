// The public face of the configuration-versions feature (configuration versions: uploads, their archives and ingress attributes), which server and workers call.
export { UploadRefused, intakeArchive } from './archive-intake.js';
export { collectOldVersions, createWorkspaceCv, cvAction, failUpload, purgeCvData } from './commands.js';
export { type CvRow, findCv, findCvWithOrganization, findIngress, insertCv, makeCurrent, moveCv } from './repo.js';
