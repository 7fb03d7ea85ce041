import type { AssessmentFindings } from '../assessments/rules.js';
import { TRIGGER_MESSAGES } from './machine.js';

/** The run notification, payload_version 1, with exactly one notification. */
export interface RunPayload {
  payload_version: 1;
  notification_configuration_id: string;
  run_url: string | null;
  run_id: string | null;
  run_message: string | null;
  run_created_at: string | null;
  run_created_by: string | null;
  workspace_id: string | null;
  workspace_name: string | null;
  organization_name: string | null;
  notifications: {
    message: string;
    trigger: string;
    run_status: string | null;
    run_updated_at: string | null;
    run_updated_by: string | null;
  }[];
}

export function runPayload(p: {
  configurationId: string;
  baseUrl: string;
  trigger: string;
  run: { id: string; message: string; status: string; created_at: Date; updated_at: Date };
  runCreatedBy: string | null;
  runUpdatedBy: string | null;
  workspace: { id: string; name: string };
  organizationName: string;
}): RunPayload {
  return {
    payload_version: 1,
    notification_configuration_id: p.configurationId,
    run_url: `${p.baseUrl}/app/${encodeURIComponent(p.organizationName)}/workspaces/${encodeURIComponent(p.workspace.name)}/runs/${p.run.id}`,
    run_id: p.run.id,
    run_message: p.run.message,
    run_created_at: p.run.created_at.toISOString(),
    run_created_by: p.runCreatedBy,
    workspace_id: p.workspace.id,
    workspace_name: p.workspace.name,
    organization_name: p.organizationName,
    notifications: [
      {
        message: TRIGGER_MESSAGES[p.trigger] ?? p.trigger,
        trigger: p.trigger,
        run_status: p.run.status,
        run_updated_at: p.run.updated_at.toISOString(),
        run_updated_by: p.runUpdatedBy,
      },
    ],
  };
}

/** The test payload sent to verify a destination: the run notification's form, no run or workspace. */
export function testPayload(configurationId: string, name: string): RunPayload {
  return {
    payload_version: 1,
    notification_configuration_id: configurationId,
    run_url: null,
    run_id: null,
    run_message: null,
    run_created_at: null,
    run_created_by: null,
    workspace_id: null,
    workspace_name: null,
    organization_name: null,
    notifications: [
      {
        message: `Verification of ${name}`,
        trigger: 'verification',
        run_status: null,
        run_updated_at: null,
        run_updated_by: null,
      },
    ],
  };
}

/** One line describing a notification, for chat and email. */
function summary(p: RunPayload): { title: string; text: string; url: string | null } {
  const n = p.notifications[0];
  if (!p.run_id) return { title: n.message, text: `${n.message}: this destination works.`, url: null };
  const where = `${p.organization_name}/${p.workspace_name}`;
  return {
    title: `${n.message}: ${where}`,
    text: `${n.message} — run ${p.run_id} in ${where} is ${n.run_status}${n.run_updated_by ? ` (by ${n.run_updated_by})` : ''}. ${p.run_message ?? ''}`.trim(),
    url: p.run_url,
  };
}

/** Slack incoming-webhook message. */
export function slackMessage(p: RunPayload): Record<string, unknown> {
  const s = summary(p);
  return {
    text: s.url ? `${s.title}\n${s.text}\n<${s.url}|View run>` : `${s.title}\n${s.text}`,
    blocks: [
      { type: 'header', text: { type: 'plain_text', text: s.title.slice(0, 150) } },
      { type: 'section', text: { type: 'mrkdwn', text: s.url ? `${s.text}\n<${s.url}|View run>` : s.text } },
    ],
  };
}

/** Microsoft Teams incoming-webhook message (MessageCard). */
export function teamsMessage(p: RunPayload): Record<string, unknown> {
  const s = summary(p);
  return {
    '@type': 'MessageCard',
    '@context': 'https://schema.org/extensions',
    summary: s.title,
    title: s.title,
    text: s.text,
    ...(s.url
      ? { potentialAction: [{ '@type': 'OpenUri', name: 'View run', targets: [{ os: 'default', uri: s.url }] }] }
      : {}),
  };
}

/** Email subject and text. */
export function emailMessage(p: RunPayload): { subject: string; text: string } {
  const s = summary(p);
  return { subject: s.title, text: s.url ? `${s.text}\n\n${s.url}\n` : `${s.text}\n` };
}

/** The auto-destroy notification, payload_version 2; run values empty when no run could be created. */
export function autoDestroyPayload(p: {
  configurationId: string;
  baseUrl: string;
  trigger: string;
  workspace: { name: string; organization_name: string };
  kind: 'reminder' | 'results';
  autoDestroyAt: Date;
  run: { id: string; status: string; created_at: Date } | null;
  error: string | null;
}): Record<string, unknown> {
  const reminder = p.kind === 'reminder';
  return {
    payload_version: 2,
    notification_configuration_id: p.configurationId,
    notification_configuration_url: `${p.baseUrl}/api/v2/notification-configurations/${p.configurationId}`,
    trigger_scope: 'workspace',
    trigger: p.trigger,
    message: reminder
      ? `Auto-destroy is scheduled for ${p.autoDestroyAt.toISOString()}`
      : p.run
        ? 'An auto-destroy run was queued'
        : 'The auto-destroy run could not be queued',
    details: reminder
      ? {
          auto_destroy_at: p.autoDestroyAt.toISOString(),
          trigger_type: 'reminder',
          workspace_name: p.workspace.name,
          organization_name: p.workspace.organization_name,
        }
      : {
          run_created_at: p.run ? p.run.created_at.toISOString() : '',
          run_status: p.run?.status ?? '',
          run_external_id: p.run?.id ?? '',
          run_create_error_message: p.error ?? '',
          trigger_type: 'results',
          workspace_name: p.workspace.name,
          organization_name: p.workspace.organization_name,
        },
  };
}

/** An assessment result as notifications carry it. */
export function assessmentResultJson(
  baseUrl: string,
  r: AssessmentFindings & { id: string; succeeded: boolean; created_at: Date },
): Record<string, unknown> {
  return {
    id: r.id,
    url: `${baseUrl}/api/v2/assessment-results/${r.id}`,
    succeeded: r.succeeded,
    all_checks_succeeded: r.checks_failed + r.checks_errored + r.checks_unknown === 0,
    checks_passed: r.checks_passed,
    checks_failed: r.checks_failed,
    checks_errored: r.checks_errored,
    checks_unknown: r.checks_unknown,
    drifted: r.drifted,
    resources_drifted: r.resources_drifted,
    resources_undrifted: r.resources_undrifted,
    created_at: r.created_at.toISOString(),
  };
}

/** The assessment notification, payload_version 2, with the new and the prior result. */
export function assessmentPayload(p: {
  configurationId: string;
  baseUrl: string;
  trigger: string;
  workspace: { id: string; name: string; organization_name: string };
  result: Record<string, unknown>;
  prior: Record<string, unknown> | null;
}): Record<string, unknown> {
  const messages: Record<string, string> = {
    'assessment:drifted': 'Drift detected',
    'assessment:check_failure': 'Checks failed',
    'assessment:failed': 'Health assessment failed',
  };
  return {
    payload_version: 2,
    notification_configuration_id: p.configurationId,
    notification_configuration_url: `${p.baseUrl}/api/v2/notification-configurations/${p.configurationId}`,
    trigger_scope: 'assessment',
    trigger: p.trigger,
    message: messages[p.trigger] ?? p.trigger,
    details: {
      new_assessment_result: p.result,
      prior_assessment_result: p.prior,
      workspace_id: p.workspace.id,
      workspace_name: p.workspace.name,
      organization_name: p.workspace.organization_name,
    },
  };
}
