import { createContext, useContext } from 'react';

/** The signed-in user, as `GET /api/console/session` answers. */
export interface User {
  id: string;
  username: string;
  email: string;
  isSiteAdmin: boolean;
}

export interface SessionState {
  user: User;
  signOut: () => Promise<void>;
}

export const SessionContext = createContext<SessionState | null>(null);

export function useSession(): SessionState {
  const s = useContext(SessionContext);
  if (!s) throw new Error('no session');
  return s;
}

export function userOf(body: { data: { id: string; attributes: Record<string, unknown> } }): User {
  const a = body.data.attributes;
  return {
    id: body.data.id,
    username: String(a.username ?? ''),
    email: String(a.email ?? ''),
    isSiteAdmin: a['is-site-admin'] === true,
  };
}

/** The sign-in page's URL that comes back to `href` afterwards. */
export const signInUrl = (href: string) => `/app/sign-in?next=${encodeURIComponent(href)}`;
