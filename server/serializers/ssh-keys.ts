import { iso, one, type Resource } from '../jsonapi.js';
import type { SshKeySummary } from '../../shared/ssh-keys/queries.js';

/** An SSH key: its name only; the private key is write-only. */
export function sshKeyResource(k: SshKeySummary): Resource {
  return {
    type: 'ssh-keys',
    id: k.id,
    attributes: { name: k.name, 'created-at': iso(k.created_at), 'updated-at': iso(k.updated_at) },
    relationships: { organization: one('organizations', k.organization_name) },
    links: { self: `/api/v2/ssh-keys/${k.id}` },
  };
}
