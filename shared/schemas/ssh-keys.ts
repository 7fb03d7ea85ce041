import { resourceDocument } from './jsonapi.js';

/** A key's name (any text, as TFE takes it) and its private key (an RSA key of 16384 bits fits well within the limit). */
const keyAttributes = {
  name: { type: 'string', minLength: 1, maxLength: 255 },
  value: { type: 'string', minLength: 1, maxLength: 32768 },
};

/** Request body schemas of SSH keys, and of a workspace's SSH key relationship. */
export const sshKeySchemas = {
  'ssh-key.create': resourceDocument('ssh-keys', keyAttributes, { required: ['name', 'value'] }),
  'ssh-key.update': resourceDocument('ssh-keys', keyAttributes),
  // go-tfe sends the key's id as an attribute of a `workspaces` document; null unassigns it.
  'workspace.ssh-key': resourceDocument(
    'workspaces',
    { id: { oneOf: [{ type: 'null' }, { type: 'string', minLength: 1, maxLength: 200 }] } },
    { required: ['id'] },
  ),
} as const;
