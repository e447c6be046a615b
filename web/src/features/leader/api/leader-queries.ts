import { infiniteQueryOptions, keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import * as z from 'zod';
import { IMPORT_MEMBERS_MAX, importMembersResult, leaderSettings, leaderSummary, licenseList, memberList, report, reportExport, seat, type LeaderSettingsBody } from '@contracts/licenses.ts';
import { learnerSessionList } from '@contracts/live-sessions.ts';
import { apiClient } from '@/lib/api-client.ts';
import { ApiError } from '@/lib/api-error.ts';
import { errorMessage } from '@/lib/error-message.ts';
import { reportUrl, type ReportFilters } from '../report-filters.ts';

const licensesKey = ['leader', 'licenses'] as const;
const membersKey = (licenseId: string) => [...licensesKey, licenseId, 'members'] as const;
const seatsPath = (licenseId: string): string => `/api/leader/licenses/${encodeURIComponent(licenseId)}/seats`;

/** GET /api/leader/licenses: the first page of the leader's licences, newest first (the dashboard, the groups, the report's filter). */
export const leaderLicensesQueryOptions = () =>
  queryOptions({
    queryKey: licensesKey,
    queryFn: ({ signal }) => apiClient.get('/api/leader/licenses', licenseList, { signal }),
  });

/** The pages of the leader's licences (the Licences screen), newest first, page after page ('Load more' follows `nextCursor`). */
export const leaderLicensePagesQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: [...licensesKey, 'pages'] as const,
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) =>
      apiClient.get(pageParam ? `/api/leader/licenses?cursor=${encodeURIComponent(pageParam)}` : '/api/leader/licenses', licenseList, { signal }),
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });

/** GET /api/leader/summary: the dashboard's figures (members, licences, completion rate, certificates). */
export const leaderSummaryQueryOptions = () =>
  queryOptions({
    queryKey: ['leader', 'summary'] as const,
    queryFn: ({ signal }) => apiClient.get('/api/leader/summary', leaderSummary, { signal }),
  });

/** GET /api/leader/sessions: the upcoming live sessions of the leader's licensed courses, soonest first (issue 30). */
export const leaderSessionsQueryOptions = () =>
  queryOptions({
    queryKey: ['leader', 'sessions'] as const,
    queryFn: ({ signal }) => apiClient.get('/api/leader/sessions', learnerSessionList, { signal }),
  });

/** GET /api/leader/licenses/{licenseId}/seats: the licence's members (active first) with their progress, page after page ('Load more' follows `nextCursor`). */
export const membersQueryOptions = (licenseId: string) =>
  infiniteQueryOptions({
    queryKey: membersKey(licenseId),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) =>
      apiClient.get(pageParam ? `${seatsPath(licenseId)}?cursor=${encodeURIComponent(pageParam)}` : seatsPath(licenseId), memberList, { signal }),
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });

/** The licence's members and the licences' seat counts, loaded again after seats moved (also after a refusal: another tab may have moved them). */
function useReloadSeats() {
  const queryClient = useQueryClient();
  return (licenseId: string) => {
    void queryClient.invalidateQueries({ queryKey: licensesKey, exact: true });
    void queryClient.invalidateQueries({ queryKey: [...licensesKey, 'pages'] });
    void queryClient.invalidateQueries({ queryKey: membersKey(licenseId) });
  };
}

/** What the server answered for one email of a batch. */
export type SeatOutcome = { kind: 'added' } | { kind: 'no-seats' } | { kind: 'refused'; message: string };

/**
 * Adding members: one email through POST /api/leader/licenses/{licenseId}/seats (every plan); several through
 * POST .../seats/import, 25 at a time one chunk after the other (`onProgress` moves per chunk), each email's outcome
 * from the answer's `results` (NO_SEATS_LEFT: no seats; any other error: refused with its message). A 403 PLAN_REQUIRED
 * (the creator is not on Pro) is thrown for the form to show as the lock's reason. Members and seat counts are loaded
 * again at the end.
 */
export function useAddMembers(licenseId: string) {
  const reload = useReloadSeats();
  return useMutation({
    mutationFn: async ({ emails, onProgress }: { emails: string[]; onProgress: (done: number) => void }): Promise<SeatOutcome[]> => {
      // One email: the single-seat route, which every plan allows.
      if (emails.length === 1) {
        onProgress(1);
        try {
          await apiClient.post(seatsPath(licenseId), seat, { body: { email: emails[0] } });
          return [{ kind: 'added' }];
        } catch (error) {
          if (error instanceof ApiError && error.code === 'PLAN_REQUIRED') throw error;
          return [outcomeOf(error instanceof ApiError ? error.code : undefined, errorMessage(error))];
        }
      }
      // Several: the import route (the creator's Pro plan), 25 at a time; a PLAN_REQUIRED refusal stops it (thrown).
      const outcomes: SeatOutcome[] = [];
      for (let start = 0; start < emails.length; start += IMPORT_MEMBERS_MAX) {
        const chunk = emails.slice(start, start + IMPORT_MEMBERS_MAX);
        onProgress(start + chunk.length);
        const { results } = await apiClient.post(`${seatsPath(licenseId)}/import`, importMembersResult, { body: { emails: chunk } });
        for (const [index, email] of chunk.entries()) {
          const result = results[index];
          if (!result) outcomes.push({ kind: 'refused', message: `${email}: no answer` });
          else if ('error' in result) outcomes.push(outcomeOf(result.error.code, result.error.message));
          else outcomes.push({ kind: 'added' });
        }
      }
      return outcomes;
    },
    onSettled: () => reload(licenseId),
  });
}

/** A refused email's row: no seats left, or the server's reason. */
const outcomeOf = (code: string | undefined, message: string): SeatOutcome => (code === 'NO_SEATS_LEFT' ? { kind: 'no-seats' } : { kind: 'refused', message });

/** POST /api/leader/licenses/{licenseId}/seats for one email: a removed member added again (their progress is still there). */
export function useAssignSeat(licenseId: string) {
  const reload = useReloadSeats();
  return useMutation({
    mutationFn: (email: string) => apiClient.post(seatsPath(licenseId), seat, { body: { email } }),
    onSettled: () => reload(licenseId),
  });
}

/** DELETE /api/leader/licenses/{licenseId}/seats/{email} (204): the member loses the course (progress kept), the seat is free. */
export function useRemoveMember(licenseId: string) {
  const reload = useReloadSeats();
  return useMutation({
    mutationFn: (email: string) => apiClient.delete(`${seatsPath(licenseId)}/${encodeURIComponent(email)}`, z.null()),
    onSettled: () => reload(licenseId),
  });
}

/**
 * GET /api/leader/reports, page after page ('Load more' follows `nextCursor`). One key per set of filters, so another
 * filter starts on its first page; the rows of the previous filters stay on screen (dimmed) until the new ones come.
 */
export const leaderReportQueryOptions = (filters: ReportFilters) =>
  infiniteQueryOptions({
    queryKey: ['leader', 'reports', filters] as const,
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) => apiClient.get(reportUrl(filters, { cursor: pageParam }), report, { signal }),
    getNextPageParam: (page) => page.nextCursor ?? undefined,
    placeholderData: keepPreviousData,
  });

/** GET /api/leader/reports?format=csv&delivery=link: every row the filters match (no paging), written by the server a page at a time, as a link to the file. */
export function useDownloadReport() {
  return useMutation({
    mutationFn: (filters: ReportFilters) => apiClient.get(reportUrl(filters, { format: 'csv' }), reportExport),
  });
}

const settingsKey = ['leader', 'settings'] as const;

/** GET /api/leader/settings: the leader's name, organisation and weekly email choice. */
export const leaderSettingsQueryOptions = () =>
  queryOptions({
    queryKey: settingsKey,
    queryFn: ({ signal }) => apiClient.get('/api/leader/settings', leaderSettings, { signal }),
  });

/** PUT /api/leader/settings; the answer replaces the cached settings. */
export function useSaveLeaderSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: LeaderSettingsBody) => apiClient.put('/api/leader/settings', leaderSettings, { body }),
    onSuccess: (saved) => queryClient.setQueryData(settingsKey, saved),
  });
}
