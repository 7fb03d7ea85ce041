// The public face of the ssh-keys feature (SSH keys for private module sources), which server and workers call.
export {
  assignSshKey,
  changeSshKey,
  createSshKey,
  removeSshKey,
  type SshKeyInput,
  workspaceSshKey,
  openSshKey,
} from './commands.js';
