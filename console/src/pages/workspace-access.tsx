import { useState } from 'react';
import { doc, relatedIds, type AttributesOf, type ListDoc } from '../api.js';
import { messageOf, useApi, write } from '../data.js';
import { ActionButton, DialogButton, Empty, Form, Select, Show, Table, str } from '../ui.js';

type Stage = NonNullable<AttributesOf<'workspace-task.create'>['stages']>[number];
type Enforcement = AttributesOf<'workspace-task.create'>['enforcement-level'];
type Access = NonNullable<AttributesOf<'team-workspace.create'>['access']>;

const STAGES: [Stage, string][] = [
  ['pre_plan', 'Pre-plan'],
  ['post_plan', 'Post-plan'],
  ['pre_apply', 'Pre-apply'],
  ['post_apply', 'Post-apply'],
];

/** A workspace's run tasks: those attached, and attaching one of the organization's tasks. */
export function WorkspaceTasks({ org, id, manage }: { org: string; id: string; manage: boolean }) {
  const attached = useApi<ListDoc>(`/workspaces/${id}/tasks`);
  const tasks = useApi<ListDoc>(`/organizations/${encodeURIComponent(org)}/tasks?page[size]=100`);
  const taken = (attached.data?.data ?? []).map((wt) => relatedIds(wt, 'task')[0]);
  const free = (tasks.data?.data ?? []).filter((t) => !taken.includes(t.id));
  const [form, setForm] = useState<{ task: string; stage: Stage; 'enforcement-level': Enforcement }>({
    task: '',
    stage: 'post_plan',
    'enforcement-level': 'advisory',
  });
  return (
    <>
      <Show loaded={attached} what="Loading run tasks">
        {(d) =>
          d.data.length === 0 ? (
            <Empty>No run tasks are attached to this workspace.</Empty>
          ) : (
            <Table head={['Task', 'URL', 'Stages', 'Enforcement', '']} caption="Attached run tasks">
              {d.data.map((wt) => {
                const task = tasks.data?.data.find((t) => t.id === relatedIds(wt, 'task')[0]);
                const name = task ? str(task.attributes.name) : relatedIds(wt, 'task')[0];
                const stages = Array.isArray(wt.attributes.stages)
                  ? wt.attributes.stages.join(', ')
                  : str(wt.attributes.stage);
                return (
                  <tr key={wt.id}>
                    <td>{name}</td>
                    <td>{task ? str(task.attributes.url) : ''}</td>
                    <td>{stages.replace(/_/g, '-')}</td>
                    <td>{str(wt.attributes['enforcement-level'])}</td>
                    <td>
                      {manage && (
                        <ActionButton
                          label="Detach"
                          name={`Detach ${name}`}
                          confirm={`Detach the run task ${name} from this workspace?`}
                          onAction={() => write('DELETE', `/workspaces/${id}/tasks/${wt.id}`)}
                        />
                      )}
                    </td>
                  </tr>
                );
              })}
            </Table>
          )
        }
      </Show>
      {manage && free.length > 0 && (
        <DialogButton label="Attach a run task" title="Attach a run task" kind="primary">
          {(close) => (
            <Form
              submit="Attach run task"
              onSubmit={async () => {
                const { task, ...attrs } = form;
                await write(
                  'POST',
                  `/workspaces/${id}/tasks`,
                  doc(
                    'workspace-task.create',
                    'workspace-tasks',
                    { 'enforcement-level': attrs['enforcement-level'], stages: [attrs.stage] },
                    {
                      task: { data: { type: 'tasks', id: task || free[0].id } },
                    },
                  ),
                );
                close();
              }}
            >
              <Select
                label="Run task"
                value={form.task || free[0].id}
                options={free.map((t) => [t.id, str(t.attributes.name)] as const)}
                onChange={(task) => setForm({ ...form, task })}
              />
              <Select
                label="Stage"
                value={form.stage}
                options={STAGES}
                onChange={(stage) => setForm({ ...form, stage })}
              />
              <Select
                label="Enforcement"
                value={form['enforcement-level']}
                options={[
                  ['advisory', 'Advisory: a failure is reported'],
                  ['mandatory', 'Mandatory: a failure stops the run'],
                ]}
                onChange={(v) => setForm({ ...form, 'enforcement-level': v })}
              />
            </Form>
          )}
        </DialogButton>
      )}
    </>
  );
}

const ACCESS: [Access, string][] = [
  ['read', 'Read'],
  ['plan', 'Plan'],
  ['write', 'Write'],
  ['admin', 'Admin'],
];

/** A team's access level, changed as soon as another is chosen (the service's refusal shown beside it). */
function AccessChoice({ grantId, team, access }: { grantId: string; team: string; access: string }) {
  const [error, setError] = useState<string | null>(null);
  const choose = async (value: Access) => {
    setError(null);
    try {
      await write(
        'PATCH',
        `/team-workspaces/${grantId}`,
        doc('team-workspace.update', 'team-workspaces', { access: value }, undefined, grantId),
      );
    } catch (err) {
      setError(messageOf(err));
    }
  };
  return (
    <>
      <select aria-label={`Access of ${team}`} value={access} onChange={(e) => void choose(e.target.value as Access)}>
        {ACCESS.map(([v, label]) => (
          <option key={v} value={v}>
            {label}
          </option>
        ))}
        {access === 'custom' && <option value="custom">Custom</option>}
      </select>
      {error && (
        <span role="alert" className="error-inline">
          {error}
        </span>
      )}
    </>
  );
}

/** Which teams may use a workspace, and how; workspace admins change it. */
export function TeamAccess({ org, id, manage }: { org: string; id: string; manage: boolean }) {
  const grants = useApi<ListDoc>(`/team-workspaces?filter[workspace][id]=${id}&page[size]=100`);
  const teams = useApi<ListDoc>(`/organizations/${encodeURIComponent(org)}/teams?page[size]=100`);
  const teamName = (teamId: string) => str(teams.data?.data.find((t) => t.id === teamId)?.attributes.name) || teamId;
  const granted = (grants.data?.data ?? []).map((g) => relatedIds(g, 'team')[0]);
  const others = (teams.data?.data ?? []).filter((t) => !granted.includes(t.id));
  const [form, setForm] = useState<{ team: string; access: Access }>({ team: '', access: 'write' });
  return (
    <>
      <Show loaded={grants} what="Loading team access">
        {(d) =>
          d.data.length === 0 ? (
            <Empty>No team has access to this workspace; organization owners always do.</Empty>
          ) : (
            <Table head={['Team', 'Access', '']} caption="Team access">
              {d.data.map((g) => {
                const name = teamName(relatedIds(g, 'team')[0]);
                return (
                  <tr key={g.id}>
                    <td>{name}</td>
                    <td>
                      {manage ? (
                        <AccessChoice grantId={g.id} team={name} access={str(g.attributes.access)} />
                      ) : (
                        str(g.attributes.access)
                      )}
                    </td>
                    <td>
                      {manage && (
                        <ActionButton
                          label="Remove"
                          name={`Remove ${name}`}
                          confirm={`Remove the access of ${name} to this workspace?`}
                          onAction={() => write('DELETE', `/team-workspaces/${g.id}`)}
                        />
                      )}
                    </td>
                  </tr>
                );
              })}
            </Table>
          )
        }
      </Show>
      {manage && others.length > 0 && (
        <DialogButton label="Add team access" title="Give a team access" kind="primary">
          {(close) => (
            <Form
              submit="Give access"
              onSubmit={async () => {
                await write(
                  'POST',
                  '/team-workspaces',
                  doc(
                    'team-workspace.create',
                    'team-workspaces',
                    { access: form.access },
                    {
                      workspace: { data: { type: 'workspaces', id } },
                      team: { data: { type: 'teams', id: form.team || others[0].id } },
                    },
                  ),
                );
                close();
              }}
            >
              <Select
                label="Team"
                value={form.team || others[0].id}
                options={others.map((t) => [t.id, str(t.attributes.name)] as const)}
                onChange={(team) => setForm({ ...form, team })}
              />
              <Select
                label="Access"
                value={form.access}
                options={ACCESS}
                onChange={(access) => setForm({ ...form, access })}
              />
            </Form>
          )}
        </DialogButton>
      )}
    </>
  );
}
