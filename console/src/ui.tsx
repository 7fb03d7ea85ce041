import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { relatedIds, type Doc, type ListDoc, type Resource } from './api.js';
import { messageOf, useApi, type Loaded } from './data.js';
import { Link } from './router.js';

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

/**
 * The console's one form: it runs `onSubmit` on submit, shows its progress on the button and, on
 * failure, the service's words beneath the fields. `done` is said once it succeeded.
 */
export function Form({
  onSubmit,
  submit,
  children,
  done,
  className = '',
  label,
}: {
  onSubmit: () => Promise<unknown>;
  submit: string;
  children: ReactNode;
  done?: string;
  className?: string;
  label?: string;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [succeeded, setSucceeded] = useState(false);
  const handle = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    setSucceeded(false);
    try {
      await onSubmit();
      setSucceeded(true);
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form onSubmit={(e) => void handle(e)} className={`form ${className}`} aria-label={label} aria-busy={busy}>
      {children}
      {error && <ErrorMessage error={error} />}
      {done && succeeded && !error && <p role="status">{done}</p>}
      <div className="row">
        <button type="submit" className="btn primary" disabled={busy}>
          {busy ? `${submit}…` : submit}
        </button>
      </div>
    </form>
  );
}

/**
 * A button that opens a modal dialog (the browser's own: the page behind it is inert, so focus
 * stays inside, and Escape closes it). `children` gets the function that closes it.
 */
export function DialogButton({
  label,
  title,
  children,
  kind = 'secondary',
  name,
}: {
  label: string;
  title: string;
  children: (close: () => void) => ReactNode;
  kind?: 'primary' | 'secondary' | 'danger';
  name?: string;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLButtonElement>(null);
  const [open, setOpen] = useState(false);
  const id = useId();
  useEffect(() => {
    const d = ref.current;
    if (open && d && !d.open) d.showModal();
  }, [open]);
  const close = () => {
    ref.current?.close();
  };
  return (
    <>
      <button ref={opener} type="button" className={`btn ${kind}`} aria-label={name} onClick={() => setOpen(true)}>
        {label}
      </button>
      <dialog
        ref={ref}
        className="dialog"
        aria-labelledby={id}
        onClose={() => {
          setOpen(false);
          opener.current?.focus();
        }}
      >
        <div className="dialog-head">
          <h2 id={id}>{title}</h2>
          <button type="button" className="btn secondary" onClick={close}>
            Close
          </button>
        </div>
        {open && children(close)}
      </dialog>
    </>
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

/** A search box and its button; `onSearch` gets the words when the search is sent. */
export function SearchForm({
  label,
  placeholder,
  button,
  initial = '',
  onSearch,
}: {
  label: string;
  placeholder: string;
  button: string;
  initial?: string;
  onSearch: (words: string) => void;
}) {
  const [words, setWords] = useState(initial);
  useEffect(() => setWords(initial), [initial]);
  return (
    <form
      role="search"
      className="row search"
      onSubmit={(e) => {
        e.preventDefault();
        onSearch(words);
      }}
    >
      <input
        type="search"
        aria-label={label}
        placeholder={placeholder}
        value={words}
        onChange={(e) => setWords(e.target.value)}
      />
      <button type="submit" className="btn secondary">
        {button}
      </button>
    </form>
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

/** A labeled checkbox, so every page of the console writes its checkboxes one way. */
export function Checkbox({
  label,
  checked,
  onChange,
  disabled,
}: {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  disabled?: boolean;
}) {
  return (
    <label className="check">
      <input type="checkbox" checked={checked} disabled={disabled} onChange={(e) => onChange(e.target.checked)} />{' '}
      {label}
    </label>
  );
}

/** A labeled choice among fixed options, so every page of the console writes its selects one way. */
export function Select<V extends string>({
  label,
  value,
  options,
  onChange,
  hint,
  disabled,
}: {
  label: string;
  value: V;
  options: readonly (readonly [value: V, text: string])[];
  onChange: (value: V) => void;
  hint?: string;
  disabled?: boolean;
}) {
  return (
    <Field label={label} hint={hint}>
      {/* The value is one of `options`, so it has their type. */}
      <select value={value} disabled={disabled} onChange={(e) => onChange(e.target.value as V)}>
        {options.map(([v, t]) => (
          <option key={v} value={v}>
            {t}
          </option>
        ))}
      </select>
    </Field>
  );
}

/** A table that scrolls sideways on a narrow screen instead of overflowing the page. */
export function Table({ head, children, caption }: { head: string[]; children: ReactNode; caption: string }) {
  return (
    // Focusable and named, so a keyboard can scroll a table wider than a narrow screen.
    <div className="table-wrap" role="region" aria-label={caption} tabIndex={0}>
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
