import { useState } from 'react';
import { call } from '../api.js';
import { useSession } from '../session.js';
import { ErrorMessage, Page } from '../ui.js';
import { messageOf } from '../data.js';

const PARAMS = [
  'client_id',
  'redirect_uri',
  'state',
  'code_challenge',
  'code_challenge_method',
  'response_type',
] as const;

/** `terraform login`'s consent step: the signed-in user lets the CLI on this computer get an API token. */
export function ConsentPage({ query }: { query: URLSearchParams }) {
  const { user } = useSession();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const params = Object.fromEntries(PARAMS.map((k) => [k, query.get(k) ?? '']));
  let target = '';
  try {
    const u = new URL(params.redirect_uri);
    target = `${u.hostname}:${u.port}`;
  } catch {
    target = '';
  }
  const allow = async () => {
    setBusy(true);
    setError(null);
    try {
      const { redirect } = await call<{ redirect: string }>('POST', '/api/console/oauth/authorize', params);
      window.location.assign(redirect);
    } catch (err) {
      setError(messageOf(err));
      setBusy(false);
    }
  };
  return (
    <Page title="Authorize Terraform CLI">
      <div className="card">
        <p>
          <strong>{params.client_id || 'A client'}</strong> asks for an API token for your account{' '}
          <strong>{user.username}</strong>. It will act as you, with all of your access.
        </p>
        {target && <p className="muted">The token goes to the program listening on this computer at {target}.</p>}
        <p>
          Allow this only if you just ran <code>terraform login</code> yourself.
        </p>
        {error && <ErrorMessage error={error} />}
        <div className="row">
          <button
            type="button"
            className="btn primary"
            disabled={busy || !params.redirect_uri}
            onClick={() => void allow()}
          >
            {busy ? 'Authorizing…' : 'Allow and create token'}
          </button>
          <button type="button" className="btn secondary" onClick={() => window.location.assign('/app/organizations')}>
            Cancel
          </button>
        </div>
      </div>
    </Page>
  );
}
