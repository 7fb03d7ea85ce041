import { QueryClient, useQuery } from '@tanstack/react-query';
import { ApiFailure, call } from './api.js';

/**
 * The console's read cache. A read of the same path anywhere on screen is one request; a write
 * through `write` marks every read stale, so what is on screen reads again and shows the change.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // A 4xx answer is the service's word (not found, not allowed): show it at once, retry nothing.
      retry: (count, err) => !(err instanceof ApiFailure && err.status >= 400 && err.status < 500) && count < 2,
      staleTime: 1000,
      refetchOnWindowFocus: false,
    },
  },
});

/** What a read through the API is doing: loading, failed (in words), or done. */
export interface Loaded<T> {
  data: T | undefined;
  error: string | null;
  loading: boolean;
  reload: () => void;
}

export const messageOf = (err: unknown) =>
  err instanceof ApiFailure || err instanceof Error ? err.message : String(err);

/**
 * Reads `path` (null: nothing yet), and every `pollMs` while `keepPolling(data)` says so (live
 * pages such as a running run).
 */
export function useApi<T>(path: string | null, pollMs?: number, keepPolling?: (data: T) => boolean): Loaded<T> {
  const q = useQuery<T, ApiFailure>({
    queryKey: ['api', path],
    queryFn: () => call<T>('GET', path!),
    enabled: path !== null,
    refetchInterval: (query) => {
      if (!pollMs) return false;
      if (query.state.error) return pollMs * 2;
      const data = query.state.data;
      return data === undefined || !keepPolling || keepPolling(data) ? pollMs : false;
    },
  });
  return {
    data: q.data,
    error: q.error ? messageOf(q.error) : null,
    loading: q.isFetching,
    reload: () => void q.refetch(),
  };
}

/** A change through the API; once it succeeds, every read on screen reads again. */
export async function write<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
  const answer = await call<T>(method, path, body);
  await queryClient.invalidateQueries({ queryKey: ['api'] });
  return answer;
}
