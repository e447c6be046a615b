import { useQuery } from '@tanstack/react-query';
import { profileQueryOptions } from './session.ts';

// Apart from session.ts because useQuery (the query observer) would otherwise join the initial chunk: the guards
// need session.ts at start-up, only the lazy screens need this hook.

/** The profile for components: `data` is the profile or null (signed out); `isPending` while it loads. */
export function useProfile() {
  return useQuery(profileQueryOptions());
}
