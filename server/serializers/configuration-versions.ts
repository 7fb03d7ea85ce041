import { iso, one, type Resource } from '../jsonapi.js';
import type { CvRow, IngressRow } from '../../shared/configuration-versions/repo.js';

/** A configuration version; `uploadUrl` is given only in the creation response. */
export function cvResource(cv: CvRow, opts: { ingressId?: string | null; uploadUrl?: string } = {}): Resource {
  return {
    type: 'configuration-versions',
    id: cv.id,
    attributes: {
      status: cv.status,
      source: cv.source,
      'auto-queue-runs': cv.auto_queue_runs,
      speculative: cv.speculative,
      provisional: cv.provisional,
      error: cv.error,
      'error-message': cv.error_message,
      'changed-files': cv.changed_files,
      'status-timestamps': cv.status_timestamps,
      'created-at': iso(cv.created_at),
      ...(opts.uploadUrl ? { 'upload-url': opts.uploadUrl } : {}),
    },
    relationships: {
      'ingress-attributes': one('ingress-attributes', opts.ingressId ?? null),
      workspace: one('workspaces', cv.workspace_id),
    },
    // Module test versions are reached through their module only.
    links: cv.workspace_id
      ? {
          self: `/api/v2/configuration-versions/${cv.id}`,
          download: `/api/v2/configuration-versions/${cv.id}/download`,
        }
      : {},
  };
}

export function ingressResource(ia: IngressRow): Resource {
  return {
    type: 'ingress-attributes',
    id: ia.id,
    attributes: {
      branch: ia.branch,
      'clone-url': ia.clone_url,
      'commit-message': ia.commit_message,
      'commit-sha': ia.commit_sha,
      'commit-url': ia.commit_url,
      'compare-url': ia.compare_url,
      identifier: ia.identifier,
      'is-pull-request': ia.is_pull_request,
      'on-default-branch': ia.on_default_branch,
      'pull-request-number': ia.pull_request_number,
      'pull-request-url': ia.pull_request_url,
      'pull-request-title': ia.pull_request_title,
      'pull-request-body': ia.pull_request_body,
      tag: ia.tag,
      'sender-username': ia.sender_username,
      'sender-avatar-url': ia.sender_avatar_url,
      'sender-html-url': ia.sender_html_url,
      'created-at': iso(ia.created_at),
    },
    relationships: { 'configuration-version': one('configuration-versions', ia.configuration_version_id) },
    links: { self: `/api/v2/configuration-versions/${ia.configuration_version_id}/ingress-attributes` },
  };
}
