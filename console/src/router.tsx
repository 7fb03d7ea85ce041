import { createBrowserHistory } from '@tanstack/react-router';
import type { AnchorHTMLAttributes, MouseEvent, ReactNode } from 'react';

/** The browser history the console's router follows (see routes.tsx); pages move through it. */
export const history = createBrowserHistory();

/** Client-side navigation within the console; the service answers every /app URL with the console. */
export function navigate(to: string, replace = false): void {
  if (replace) history.replace(to);
  else history.push(to);
}

/** Builds a console path from segments (each encoded). */
export const appPath = (...segments: string[]) => `/app/${segments.map(encodeURIComponent).join('/')}`;

/** A link that navigates inside the console without reloading it (modifier clicks open as usual). */
export function Link({
  to,
  children,
  ...rest
}: { to: string; children: ReactNode } & Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'>) {
  const onClick = (e: MouseEvent<HTMLAnchorElement>) => {
    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(to);
  };
  return (
    <a href={to} onClick={onClick} {...rest}>
      {children}
    </a>
  );
}
