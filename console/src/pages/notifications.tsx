import { useState } from 'react';
import { doc, type AttributesOf, relatedIds, type Doc, type ListDoc, type Resource } from '../api.js';
import { useApi, write } from '../data.js';
import { Link, appPath } from '../router.js';
import {
  ActionButton,
  Checkbox,
  DialogButton,
  Empty,
  Field,
  Form,
  Select,
  Show,
  Status,
  Table,
  Time,
  str,
} from '../ui.js';

type NotificationAttributes = AttributesOf<'notification.create'>;
type Destination = NotificationAttributes['destination-type'];
type Trigger = NonNullable<NotificationAttributes['triggers']>[number];

/** The run events a notification can be sent for, as TFE names them, in the words its UI uses. */
const RUN_TRIGGERS: [Trigger, string][] = [
  ['run:created', 'Created'],
  ['run:planning', 'Planning'],
  ['run:needs_attention', 'Needs attention'],
  ['run:applying', 'Applying'],
  ['run:completed', 'Completed'],
  ['run:errored', 'Errored'],
  ['assessment:drifted', 'Drift detected'],
  ['assessment:check_failure', 'Checks failed'],
  ['assessment:failed', 'Health assessment failed'],
];

const DESTINATIONS: [Destination, string][] = [
  ['generic', 'Webhook'],
  ['slack', 'Slack'],
  ['microsoft-teams', 'Microsoft Teams'],
];

interface ConfigFields {
  name: string;
  'destination-type': Destination;
  url: string;
  token: string;
  triggers: Trigger[];
  enabled: boolean;
}

/** A notification configuration's fields. The token signs webhook deliveries: it is write-only. */
function ConfigForm({
  initial,
  submit,
  onSave,
  editing = false,
}: {
  initial: ConfigFields;
  submit: string;
  onSave: (attrs: NotificationAttributes) => Promise<unknown>;
  editing?: boolean;
}) {
  const [f, setF] = useState(initial);
  const toggle = (t: Trigger) =>
    setF({ ...f, triggers: f.triggers.includes(t) ? f.triggers.filter((x) => x !== t) : [...f.triggers, t] });
  return (
    <Form
      submit={submit}
      onSubmit={() => {
        const { token, url, ...rest } = f;
        return onSave({
          ...rest,
          url,
          // An empty token on an edit keeps the one set before.
          ...(token || !editing ? { token: token || null } : {}),
        });
      }}
    >
      <Field label="Name">
        <input required value={f.name} onChange={(e) => setF({ ...f, name: e.target.value })} />
      </Field>
      <Select
        label="Destination"
        value={f['destination-type']}
        options={DESTINATIONS}
        disabled={editing}
        onChange={(v) => setF({ ...f, 'destination-type': v })}
      />
      <Field label="URL">
        <input type="url" required value={f.url} onChange={(e) => setF({ ...f, url: e.target.value })} />
      </Field>
      {f['destination-type'] === 'generic' && (
        <Field
          label="Token (optional)"
          hint={editing ? 'Leave empty to keep the current token.' : 'Signs each delivery (HMAC).'}
        >
          <input type="password" value={f.token} onChange={(e) => setF({ ...f, token: e.target.value })} />
        </Field>
      )}
      <fieldset>
        <legend>Send for</legend>
        {RUN_TRIGGERS.map(([t, label]) => (
          <Checkbox key={t} label={label} checked={f.triggers.includes(t)} onChange={() => toggle(t)} />
        ))}
      </fieldset>
      <Checkbox label="Enabled" checked={f.enabled} onChange={(enabled) => setF({ ...f, enabled })} />
    </Form>
  );
}

const fieldsOf = (c: Resource): ConfigFields => ({
  name: str(c.attributes.name),
  'destination-type': str(c.attributes['destination-type']) as Destination,
  url: str(c.attributes.url),
  token: '',
  triggers: Array.isArray(c.attributes.triggers) ? (c.attributes.triggers as Trigger[]) : [],
  enabled: c.attributes.enabled === true,
});

const BLANK: ConfigFields = {
  name: '',
  'destination-type': 'generic',
  url: '',
  token: '',
  triggers: ['run:needs_attention', 'run:completed', 'run:errored'],
  enabled: true,
};

interface DeliveryResponse {
  code: string;
  body: string;
  'sent-at': string;
  successful: boolean;
}

/** What the destination answered to the last verification (TFE's `delivery-responses`). */
function Verification({ responses }: { responses: unknown }) {
  const last = Array.isArray(responses) ? (responses as DeliveryResponse[]).at(-1) : undefined;
  if (!last) return <p className="muted small">Not verified yet.</p>;
  return (
    <p aria-label="Last verification">
      Last verification <Time at={last['sent-at']} />: <Status value={last.successful ? 'delivered' : 'failed'} />{' '}
      {last.code && `HTTP ${last.code}`}
      {last.body && <span className="muted small"> {last.body.slice(0, 200)}</span>}
    </p>
  );
}

function Configuration({ org, ws, config }: { org: string; ws: string; config: Resource }) {
  const a = config.attributes;
  const name = str(a.name);
  const patch = (attrs: AttributesOf<'notification.update'>) =>
    write(
      'PATCH',
      `/notification-configurations/${config.id}`,
      doc('notification.update', 'notification-configurations', attrs, undefined, config.id),
    );
  return (
    <section className="card" aria-labelledby={`nc-${config.id}`}>
      <h2 id={`nc-${config.id}`}>
        {name} <span className="muted small">{str(a['destination-type'])}</span>{' '}
        <span className="pill">{a.enabled ? 'enabled' : 'disabled'}</span>
      </h2>
      <p className="muted small">
        {str(a.url)} · triggers: {Array.isArray(a.triggers) ? a.triggers.join(', ') : ''}
      </p>
      <div className="row">
        <ActionButton
          label="Verify"
          name={`Verify ${name}`}
          onAction={() => write('POST', `/notification-configurations/${config.id}/actions/verify`)}
        />
        <ActionButton
          label={a.enabled ? 'Disable' : 'Enable'}
          name={`${a.enabled ? 'Disable' : 'Enable'} ${name}`}
          onAction={() => patch({ enabled: !a.enabled })}
        />
        <DialogButton label="Edit" name={`Edit ${name}`} title={`Edit notification ${name}`}>
          {(close) => (
            <ConfigForm
              editing
              initial={fieldsOf(config)}
              submit="Save notification"
              onSave={async (attrs) => {
                await patch(attrs);
                close();
              }}
            />
          )}
        </DialogButton>
        <ActionButton
          kind="danger"
          label="Delete"
          name={`Delete ${name}`}
          confirm={`Delete the notification ${name}?`}
          onAction={() => write('DELETE', `/notification-configurations/${config.id}`)}
        />
      </div>
      <Verification responses={a['delivery-responses']} />
      <h3>Delivery log</h3>
      <Deliveries org={org} ws={ws} configId={config.id} canResend />
    </section>
  );
}

/** A workspace's notification configurations (workspace admins only), with their delivery logs. */
export function WorkspaceNotifications({
  org,
  ws,
  id,
  manage,
}: {
  org: string;
  ws: string;
  id: string;
  manage: boolean;
}) {
  const configs = useApi<ListDoc>(manage ? `/workspaces/${id}/notification-configurations` : null);
  if (!manage) return <Empty>Only workspace admins see notification configurations.</Empty>;
  return (
    <>
      <Show loaded={configs} what="Loading notification configurations">
        {(d) =>
          d.data.length === 0 ? (
            <Empty>No notification configurations.</Empty>
          ) : (
            <>
              {d.data.map((c) => (
                <Configuration key={c.id} org={org} ws={ws} config={c} />
              ))}
            </>
          )
        }
      </Show>
      <DialogButton label="Create a notification" title="Create a notification" kind="primary">
        {(close) => (
          <ConfigForm
            initial={BLANK}
            submit="Create notification"
            onSave={async (attrs) => {
              await write<Doc>(
                'POST',
                `/workspaces/${id}/notification-configurations`,
                doc('notification.create', 'notification-configurations', attrs),
              );
              close();
            }}
          />
        )}
      </DialogButton>
    </>
  );
}

function Deliveries({
  org,
  ws,
  configId,
  canResend,
}: {
  org: string;
  ws: string;
  configId: string;
  canResend: boolean;
}) {
  const deliveries = useApi<ListDoc>(`/notification-configurations/${configId}/deliveries?page[size]=20`, 5000);
  return (
    <Show loaded={deliveries} what="Loading deliveries">
      {(d) =>
        d.data.length === 0 ? (
          <Empty>Nothing delivered yet.</Empty>
        ) : (
          <Table head={['Trigger', 'Run', 'Status', 'Attempts', 'Last answer', 'Created', '']} caption="Delivery log">
            {d.data.map((x) => (
              <tr key={x.id}>
                <td>{str(x.attributes.trigger)}</td>
                <td>
                  {relatedIds(x, 'run')[0] ? (
                    <Link to={appPath(org, 'workspaces', ws, 'runs', relatedIds(x, 'run')[0])}>
                      {relatedIds(x, 'run')[0]}
                    </Link>
                  ) : (
                    <span className="muted">none (a test)</span>
                  )}
                </td>
                <td>
                  <Status value={x.attributes.status} />
                </td>
                <td>{str(x.attributes['attempt-count'])}</td>
                <td>
                  {x.attributes['last-status-code'] !== null ? `HTTP ${str(x.attributes['last-status-code'])}` : ''}{' '}
                  {str(x.attributes['last-error'])}
                </td>
                <td>
                  <Time at={x.attributes['created-at']} />
                </td>
                <td>
                  {canResend && x.attributes.status !== 'pending' && x.attributes.status !== 'sending' && (
                    <ActionButton
                      label="Resend"
                      name={`Resend the ${str(x.attributes.trigger)} delivery${relatedIds(x, 'run')[0] ? ` of ${relatedIds(x, 'run')[0]}` : ''}`}
                      onAction={() => write('POST', `/notification-deliveries/${x.id}/actions/resend`)}
                    />
                  )}
                </td>
              </tr>
            ))}
          </Table>
        )
      }
    </Show>
  );
}
