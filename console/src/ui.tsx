import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { ApiFailure, call, relatedIds, type Doc, type ListDoc, type Resource } from './api.js';
import { Link } from './router.js';

/** What a read through the API is doing: loading, failed (in words), or done. */
export interface Loaded<T> {
  data: T | undefined;
  error: string | null;
  loading: boolean;
  reload: () => void;
}

/**
 * Reads `path` (null: nothing yet), again whenever `path` changes or `reload` is called, and every
 * `pollMs` while `keepPolling(data)` says so (live pages such as a running run).
 */
export function useApi<T>(path: string | null, pollMs?: number, keepPolling?: (data: T) => boolean): Loaded<T> {
  const [state, setState] = useState<{
    data: T | undefined;
    error: string | null;
    loading: boolean;
    path: string | null;
  }>({ data: undefined, error: null, loading: path !== null, path });
  const [tick, setTick] = useState(0);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  const keep = useRef(keepPolling);
  keep.current = keepPolling;
  useEffect(() => {
    if (path === null) return;
    let alive = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const load = async () => {
      try {
        const data = await call<T>('GET', path);
        if (!alive) return;
        setState({ data, error: null, loading: false, path });
        if (pollMs && (!keep.current || keep.current(data))) timer = setTimeout(load, pollMs);
      } catch (err) {
        if (!alive) return;
        setState((s) => ({ data: s.path === path ? s.data : undefined, error: messageOf(err), loading: false, path }));
        if (pollMs) timer = setTimeout(load, pollMs * 2);
      }
    };
    setState((s) =>
      s.path === path ? { ...s, loading: true } : { data: undefined, error: null, loading: true, path },
    );
    void load();
    return () => {
      alive = false;
      if (timer) clearTimeout(timer);
    };
  }, [path, tick, pollMs]);
  return { data: state.path === path ? state.data : undefined, error: state.error, loading: state.loading, reload };
}

export const messageOf = (err: unknown) =>
  err instanceof ApiFailure || err instanceof Error ? err.message : String(err);

/** A button that runs an API action, shows its progress and, on failure, the service's words. */
export function ActionButton({
  label,
  onAction,
  kind = 'secondary',
  confirm,
  name,
}: {
  label: string;
  onAction: () => Promise<unknown>;
  kind?: 'primary' | 'secondary' | 'danger';
  confirm?: string;
  name?: string;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async () => {
    if (confirm && !window.confirm(confirm)) return;
    setBusy(true);
    setError(null);
    try {
      await onAction();
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <span className="action">
      <button type="button" className={`btn ${kind}`} disabled={busy} aria-label={name} onClick={() => void run()}>
        {busy ? `${label}…` : label}
      </button>
      {error && (
        <span role="alert" className="error-inline">
          {error}
        </span>
      )}
    </span>
  );
}

export function Loading({ what = 'Loading' }: { what?: string }) {
  return (
    <p className="loading" role="status">
      {what}…
    </p>
  );
}

export function ErrorMessage({ error }: { error: string }) {
  return (
    <p className="error" role="alert">
      {error}
    </p>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <p className="empty">{children}</p>;
}

/** Shows what a read has: loading, its error, or `children(data)`. */
export function Show<T>({
  loaded,
  children,
  what,
}: {
  loaded: Loaded<T>;
  children: (data: T) => ReactNode;
  what?: string;
}) {
  if (loaded.data !== undefined) {
    return (
      <>
        {loaded.error && <ErrorMessage error={loaded.error} />}
        {children(loaded.data)}
      </>
    );
  }
  if (loaded.error) return <ErrorMessage error={loaded.error} />;
  return <Loading what={what} />;
}

/** A time in the viewer's own time zone (the exact instant in the tooltip). */
export function Time({ at }: { at: unknown }) {
  if (typeof at !== 'string' || !at) return <span className="muted">—</span>;
  const d = new Date(at);
  if (Number.isNaN(d.getTime())) return <span>{at}</span>;
  return (
    <time dateTime={at} title={d.toISOString()}>
      {d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' })}
    </time>
  );
}

const TONES: Record<string, string> = {
  applied: 'good',
  planned_and_finished: 'good',
  passed: 'good',
  finished: 'good',
  delivered: 'good',
  overridden: 'warn',
  policy_checked: 'good',
  planned: 'info',
  errored: 'bad',
  failed: 'bad',
  hard_failed: 'bad',
  canceled: 'muted',
  force_canceled: 'muted',
  discarded: 'muted',
  unreachable: 'muted',
  skipped: 'muted',
  soft_failed: 'warn',
  policy_override: 'warn',
  policy_soft_failed: 'warn',
  pending: 'muted',
  queued: 'info',
};

/** A status as a colored label (color is never the only signal: the words are there too). */
export function Status({ value }: { value: unknown }) {
  const s = typeof value === 'string' ? value : 'unknown';
  const tone = TONES[s] ?? (/ing$|queued/.test(s) ? 'info' : 'muted');
  return <span className={`status ${tone}`}>{s.replace(/_/g, ' ')}</span>;
}

/** The page frame: breadcrumbs, the page's one h1, and its content. */
export function Page({
  title,
  crumbs = [],
  actions,
  children,
}: {
  title: string;
  crumbs?: { label: string; to: string }[];
  actions?: ReactNode;
  children: ReactNode;
}) {
  useEffect(() => {
    document.title = `${title} · Console`;
  }, [title]);
  return (
    <main className="page">
      {crumbs.length > 0 && (
        <nav aria-label="Breadcrumb" className="crumbs">
          {crumbs.map((c) => (
            <span key={c.to}>
              <Link to={c.to}>{c.label}</Link> /{' '}
            </span>
          ))}
        </nav>
      )}
      <div className="page-head">
        <h1>{title}</h1>
        {actions && <div className="page-actions">{actions}</div>}
      </div>
      {children}
    </main>
  );
}

/** Tabs as links (each tab has its own URL). */
export function Tabs({
  tabs,
  active,
  label,
}: {
  tabs: { id: string; label: string; to: string }[];
  active: string;
  label: string;
}) {
  return (
    <nav className="tabs" aria-label={label}>
      {tabs.map((t) => (
        <Link
          key={t.id}
          to={t.to}
          aria-current={t.id === active ? 'page' : undefined}
          className={t.id === active ? 'tab active' : 'tab'}
        >
          {t.label}
        </Link>
      ))}
    </nav>
  );
}

/** A labeled form field. */
export function Field({ label, children, hint }: { label: string; children: ReactNode; hint?: string }) {
  return (
    <label className="field">
      <span className="field-label">{label}</span>
      {children}
      {hint && <span className="hint">{hint}</span>}
    </label>
  );
}

/** A table that scrolls sideways on a narrow screen instead of overflowing the page. */
export function Table({ head, children, caption }: { head: string[]; children: ReactNode; caption: string }) {
  return (
    <div className="table-wrap">
      <table>
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr>
            {head.map((h) => (
              <th key={h} scope="col">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

export const str = (v: unknown): string =>
  v === null || v === undefined
    ? ''
    : typeof v === 'string'
      ? v
      : typeof v === 'number' || typeof v === 'boolean'
        ? String(v)
        : JSON.stringify(v);

/** Previous and next buttons for a paginated list (nothing when it fits one page). */
export function Pager({
  list,
  setPage,
  label,
  prev = 'Previous page',
  next = 'Next page',
}: {
  list: ListDoc | undefined;
  setPage: (f: (p: number) => number) => void;
  label: string;
  prev?: string;
  next?: string;
}) {
  const p = list?.meta?.pagination;
  if (!p || p['total-pages'] <= 1) return null;
  return (
    <nav className="row" aria-label={label}>
      <button type="button" className="btn secondary" disabled={!p['prev-page']} onClick={() => setPage((n) => n - 1)}>
        {prev}
      </button>
      <span>
        Page {p['current-page']} of {p['total-pages']}
      </span>
      <button type="button" className="btn secondary" disabled={!p['next-page']} onClick={() => setPage((n) => n + 1)}>
        {next}
      </button>
    </nav>
  );
}

/** What the viewer may do in an organization (its `permissions`; all false until read). */
export function useOrgPermissions(org: string): Record<string, boolean> {
  const found = useApi<Doc>(`/organizations/${encodeURIComponent(org)}`);
  return (found.data?.data.attributes.permissions ?? {}) as Record<string, boolean>;
}

/** The id of a to-one relationship (an organization's id is its name). */
export const relatedName = (r: Resource, name: string): string => relatedIds(r, name)[0] ?? '';
