/** A sign-in through a provider must come back within this long (the provider's own pages included). */
export const SIGN_IN_WINDOW_SECONDS = 600;

/** The groups an ID token lists under `claim` (a list of strings, or one string), without duplicates. */
export function groupsOf(claims: Record<string, unknown>, claim: string | null): string[] {
  if (!claim) return [];
  const value = claims[claim];
  const list = Array.isArray(value) ? value : typeof value === 'string' ? [value] : [];
  return [...new Set(list.filter((g): g is string => typeof g === 'string' && g.length > 0 && g.length <= 255))];
}

/** The username a new account asks for: the claim's value, else the email's local part, else the subject. */
export function wantedUsername(claims: Record<string, unknown>, claim: string): string {
  const named = claims[claim];
  if (typeof named === 'string' && named.trim()) return named.trim();
  if (typeof claims.email === 'string' && claims.email.includes('@')) return claims.email.split('@')[0];
  return `user-${String(claims.sub ?? '').slice(0, 20)}`;
}

/** The email an ID token gives, and whether the provider says it verified it. */
export function emailOf(claims: Record<string, unknown>): { email: string | null; verified: boolean } {
  const email = typeof claims.email === 'string' && claims.email.includes('@') ? claims.email : null;
  return { email, verified: email !== null && claims.email_verified === true };
}

/** Only a path inside the console is followed after sign-in (never another site, never sign-in again). */
export function safeNext(next: string | null | undefined): string {
  return next && next.startsWith('/app/') && !next.startsWith('//') && !next.startsWith('/app/sign-in')
    ? next
    : '/app/organizations';
}
