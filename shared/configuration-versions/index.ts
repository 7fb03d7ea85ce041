// The public face of the configuration-versions feature (configuration versions: uploads, their archives and ingress attributes), which server and workers call.
export { acceptUpload, collectOldVersions, createWorkspaceCv, cvAction } from './commands.js';
export { type CvRow, findCv, findCvWithOrganization, findIngress, insertCv } from './repo.js';
