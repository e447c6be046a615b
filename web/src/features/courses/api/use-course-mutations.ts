import { useMutation, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import * as z from 'zod';
import { revokeCertificateResult } from '@contracts/certificates.ts';
import {
  course,
  enrollResponse,
  lesson,
  type Course,
  type CreateCourseBody,
  type CreateLessonBody,
  type UpdateCourseBody,
  type UpdateLessonBody,
} from '@contracts/courses.ts';
import { license, type GrantLicenseBody, type License, type LicenseList } from '@contracts/licenses.ts';
import { liveSession, type ScheduleSessionBody, type UpdateSessionBody } from '@contracts/live-sessions.ts';
import { toast, toastError } from '@/components/ui/toaster.tsx';
import { apiClient } from '@/lib/api-client.ts';
import { ApiError } from '@/lib/api-error.ts';
import { IDEMPOTENCY_HEADER } from '@/lib/idempotency-key.ts';
import { courseMessages as m } from '../course-messages.ts';
import { courseKeys } from './course-queries.ts';

// Every write answers with what changed; the caches of the course builder (and the dashboard's figures) are then
// refetched, so every screen shows the server's truth. Failures toast the server's message (it names the field).

const coursePath = (courseId: string) => `/api/courses/${encodeURIComponent(courseId)}`;
/** Deletions and reorders: their answer's body is not used. */
const anyAnswer = z.unknown();
/** The creator dashboard's figures (the creator feature's GET /api/creator/stats) move with every course change. */
const creatorStatsKey = ['creator', 'stats'] as const;

function useRefresh() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: courseKeys.all });
    void queryClient.invalidateQueries({ queryKey: creatorStatsKey });
  };
}

/** Keeps the cached course (and its lessons) equal to the server's answer at once, before the refetch. */
function useStoreCourse() {
  const queryClient = useQueryClient();
  return (saved: Course) => queryClient.setQueryData(courseKeys.detail(saved.id), saved);
}

/** POST /api/courses. */
export function useCreateCourse() {
  const refresh = useRefresh();
  const store = useStoreCourse();
  return useMutation({
    mutationFn: (body: CreateCourseBody) => apiClient.post('/api/courses', course, { body }),
    onSuccess: (created) => {
      store(created);
      refresh();
      toast.success(m.created.title, { description: m.created.description });
    },
    onError: (error) => toastError(error, m.failed),
  });
}

/** PATCH /api/courses/{courseId}: details, or the status (publish / unpublish). */
export function useUpdateCourse(courseId: string) {
  const refresh = useRefresh();
  const store = useStoreCourse();
  return useMutation({
    mutationFn: (body: UpdateCourseBody) => apiClient.patch(coursePath(courseId), course, { body }),
    onSuccess: (saved, body) => {
      store(saved);
      refresh();
      if (body.status === 'published') toast.success(m.published.title, { description: m.published.description });
      else if (body.status === 'draft') toast.success(m.unpublished.title, { description: m.unpublished.description });
      else toast.success(m.saved.title);
    },
    onError: (error) => toastError(error, m.failed),
  });
}

/** DELETE /api/courses/{courseId}: the course, its lessons and its enrolments. */
export function useDeleteCourse() {
  const refresh = useRefresh();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (courseId: string) => apiClient.delete(coursePath(courseId), anyAnswer),
    onSuccess: (_answer, courseId) => {
      queryClient.removeQueries({ queryKey: courseKeys.detail(courseId) });
      refresh();
      toast.success(m.deleted.title);
    },
    onError: (error) => toastError(error, m.failed),
  });
}

/** POST /api/courses/{courseId}/lessons: appended at the end. */
export function useCreateLesson(courseId: string) {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (body: CreateLessonBody) => apiClient.post(`${coursePath(courseId)}/lessons`, lesson, { body }),
    onSuccess: () => {
      refresh();
      toast.success(m.lessonAdded.title);
    },
    onError: (error) => toastError(error, m.failed),
  });
}

/** PATCH /api/courses/{courseId}/lessons/{lessonId}. */
export function useUpdateLesson(courseId: string) {
  const queryClient = useQueryClient();
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ lessonId, body }: { lessonId: string; body: UpdateLessonBody }) =>
      apiClient.patch(`${coursePath(courseId)}/lessons/${encodeURIComponent(lessonId)}`, lesson, { body }),
    onSuccess: (saved) => {
      // The saved lesson in the cached course at once: opened again before the refetch lands, it shows what was saved.
      queryClient.setQueryData<Course>(courseKeys.detail(courseId), (cached) =>
        cached ? { ...cached, lessons: cached.lessons.map((l) => (l.id === saved.id ? saved : l)) } : cached,
      );
      refresh();
      toast.success(m.lessonSaved.title);
    },
    onError: (error) => toastError(error, m.failed),
  });
}

/** DELETE /api/courses/{courseId}/lessons/{lessonId}. */
export function useDeleteLesson(courseId: string) {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (lessonId: string) => apiClient.delete(`${coursePath(courseId)}/lessons/${encodeURIComponent(lessonId)}`, anyAnswer),
    onSuccess: () => {
      refresh();
      toast.success(m.lessonDeleted.title);
    },
    onError: (error) => toastError(error, m.failed),
  });
}

/**
 * PUT /api/courses/{courseId}/lessons/order with every lesson id in the new order. The list moves at once
 * (optimistic), and goes back if the server refuses.
 */
export function useReorderLessons(courseId: string) {
  const refresh = useRefresh();
  const queryClient = useQueryClient();
  const key = courseKeys.detail(courseId);
  return useMutation({
    mutationFn: (lessonIds: string[]) => apiClient.put(`${coursePath(courseId)}/lessons/order`, anyAnswer, { body: { lessonIds } }),
    onMutate: async (lessonIds) => {
      await queryClient.cancelQueries({ queryKey: key });
      const before = queryClient.getQueryData<Course>(key);
      if (before) {
        const byId = new Map(before.lessons.map((l) => [l.id, l]));
        const lessons = lessonIds.flatMap((id, position) => {
          const found = byId.get(id);
          return found ? [{ ...found, position }] : [];
        });
        queryClient.setQueryData<Course>(key, { ...before, lessons });
      }
      return { before };
    },
    onError: (error, _ids, context) => {
      if (context?.before) queryClient.setQueryData(key, context.before);
      toastError(error, m.failed);
    },
    onSettled: refresh,
  });
}

/** POST /api/courses/{courseId}/enrollments {email}: enrols the learner, creating and inviting a new account. */
export function useEnrollLearner(courseId: string) {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (email: string) => apiClient.post(`${coursePath(courseId)}/enrollments`, enrollResponse, { body: { email } }),
    onSuccess: ({ email, invited }) => {
      refresh();
      const text = invited ? m.invited(email) : m.enrolled(email);
      toast.success(text.title, { description: text.description });
    },
    // An unverified creator is shown the verification panel beside the form (learners-panel.tsx), not a toast.
    onError: (error) => (error instanceof ApiError && error.code === 'EMAIL_NOT_VERIFIED' ? undefined : toastError(error, m.failed)),
  });
}

/** DELETE /api/courses/{courseId}/enrollments/{learnerId}: access ends, progress is kept. */
export function useRemoveLearner(courseId: string) {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (learnerId: string) => apiClient.delete(`${coursePath(courseId)}/enrollments/${encodeURIComponent(learnerId)}`, anyAnswer),
    onSuccess: () => {
      refresh();
      toast.success(m.learnerRemoved.title, { description: m.learnerRemoved.description });
    },
    onError: (error) => toastError(error, m.failed),
  });
}

// Team licences. The grant and seat dialogs show the server's refusals themselves (an email of another role, fewer
// seats than those in use), so their hooks toast only success; the answer replaces the licence in the cached list.

/** What the licence actions say (kept with their hooks: the panel's tests assert them too). */
export const licenseMessages = {
  granted: (granted: License) => ({
    title: 'Licence granted',
    description: `${granted.leaderEmail} can now give ${granted.seatsTotal === 1 ? 'its seat' : `its ${granted.seatsTotal} seats`} to their team. A new leader gets an email with how to sign in.`,
  }),
  seatsUpdated: (saved: License) => ({ title: 'Seats updated', description: `${saved.leaderEmail}'s licence now has ${saved.seatsTotal === 1 ? '1 seat' : `${saved.seatsTotal} seats`}.` }),
  ended: { title: 'Licence ended', description: 'Its members no longer have access to the course; their progress is kept.' },
} as const;

const licensesPath = (courseId: string) => `${coursePath(courseId)}/licenses`;

/** Puts a licence as the server answered it into the course's cached pages: in place, or at the top of the first when new. */
function useStoreLicense(courseId: string) {
  const queryClient = useQueryClient();
  return (saved: License) => {
    const key = courseKeys.licenses(courseId);
    const data = queryClient.getQueryData<InfiniteData<LicenseList, string | undefined>>(key);
    if (!data) {
      void queryClient.invalidateQueries({ queryKey: key });
      return;
    }
    const known = data.pages.some((page) => page.items.some((l) => l.id === saved.id));
    queryClient.setQueryData<InfiniteData<LicenseList, string | undefined>>(key, {
      ...data,
      pages: data.pages.map((page, index) => ({
        ...page,
        items: known ? page.items.map((l) => (l.id === saved.id ? saved : l)) : index === 0 ? [saved, ...page.items] : page.items,
      })),
    });
  };
}

/**
 * POST /api/courses/{courseId}/licenses: a licence sold outside the platform; the leader's new account is invited
 * by email. 409 CONFLICT for an email of another role, 400 VALIDATION_FAILED: the form shows them.
 */
export function useGrantLicense(courseId: string) {
  const store = useStoreLicense(courseId);
  return useMutation({
    mutationFn: (body: GrantLicenseBody) => apiClient.post(licensesPath(courseId), license, { body }),
    onSuccess: (granted) => {
      store(granted);
      const text = licenseMessages.granted(granted);
      toast.success(text.title, { description: text.description });
    },
  });
}

/** PATCH /api/courses/{courseId}/licenses/{licenseId} {seatsTotal}: 409 below the seats in use or on an ended licence (the dialog shows it). */
export function useUpdateLicenseSeats(courseId: string) {
  const store = useStoreLicense(courseId);
  return useMutation({
    mutationFn: ({ licenseId, seatsTotal }: { licenseId: string; seatsTotal: number }) =>
      apiClient.patch(`${licensesPath(courseId)}/${encodeURIComponent(licenseId)}`, license, { body: { seatsTotal } }),
    onSuccess: (saved) => {
      store(saved);
      const text = licenseMessages.seatsUpdated(saved);
      toast.success(text.title, { description: text.description });
    },
  });
}

/**
 * PATCH /api/courses/{courseId}/licenses/{licenseId} {status: 'ended'}: its members lose the course now (progress
 * kept), so the course's learners and figures are loaded again too.
 */
export function useEndLicense(courseId: string) {
  const store = useStoreLicense(courseId);
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (licenseId: string) => apiClient.patch(`${licensesPath(courseId)}/${encodeURIComponent(licenseId)}`, license, { body: { status: 'ended' } }),
    onSuccess: (ended) => {
      store(ended);
      refresh();
      toast.success(licenseMessages.ended.title, { description: licenseMessages.ended.description });
    },
    onError: (error) => toastError(error, m.failed),
  });
}

// Certificates. The revoke dialog shows the server's refusal itself, so the hook toasts only success.

/** What revoking says (kept with its hook: the panel's tests assert it too). */
export const certificateMessages = {
  revoked: { title: 'Certificate revoked', description: 'Its page now says it is revoked, with your reason, to anyone who checks it.' },
} as const;

/** POST /api/certificates/{id}/revoke {reason}: the certificate's page says revoked from now on; the course's list is loaded again. */
export function useRevokeCertificate(courseId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ certificateId, reason }: { certificateId: string; reason: string }) =>
      apiClient.post(`/api/certificates/${encodeURIComponent(certificateId)}/revoke`, revokeCertificateResult, { body: { reason } }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: courseKeys.certificates(courseId) });
      toast.success(certificateMessages.revoked.title, { description: certificateMessages.revoked.description });
    },
  });
}

// Live sessions (issue 30). The session dialog shows the server's refusals itself (a provider not connected, a provider
// down, a field), so scheduling and rescheduling toast only success; the course's sessions are then read again.

/** What the live sessions' actions say (kept with their hooks: the panel's tests assert them too). */
export const sessionMessages = {
  scheduled: (title: string, provider: string) => ({ title: 'Session scheduled', description: `“${title}” has its meeting in ${provider}.` }),
  rescheduled: (title: string) => ({ title: 'Session changed', description: `“${title}” is changed in its meeting too.` }),
  cancelled: (title: string, provider: string) => ({ title: 'Session cancelled', description: `“${title}”: the meeting is deleted in ${provider}.` }),
  /** A change or cancellation saved while the provider was down or refused: the provider is tried again until it agrees. */
  rescheduledPending: (title: string, provider: string) => ({ title: 'Session changed', description: `“${title}” is changed here. ${pendingMessage('update', provider)}` }),
  cancelledPending: (title: string, provider: string) => ({ title: 'Session cancelled', description: `“${title}” is cancelled here. ${pendingMessage('delete', provider)}` }),
} as const;

/**
 * What a session whose change or cancellation the provider has not made yet says (`providerSync: 'pending'`); the
 * server stops trying a day after the session's end (`stopped`).
 */
export const pendingMessage = (action: 'update' | 'delete', provider: string, stopped = false): string =>
  stopped
    ? `Not ${action === 'delete' ? 'deleted' : 'changed'} in ${provider}: we stopped trying a day after the session ended.`
    : `Not yet ${action === 'delete' ? 'deleted' : 'changed'} in ${provider}: we keep trying.`;

const sessionsPath = (courseId: string) => `${coursePath(courseId)}/sessions`;

function useRefreshSessions(courseId: string) {
  const queryClient = useQueryClient();
  return () => void queryClient.invalidateQueries({ queryKey: courseKeys.sessions(courseId) });
}

/** POST /api/courses/{courseId}/sessions with the dialog's Idempotency-Key (a retry of the same dialog makes one meeting). */
export function useScheduleSession(courseId: string) {
  const refresh = useRefreshSessions(courseId);
  return useMutation({
    mutationFn: ({ body, idempotencyKey }: { body: ScheduleSessionBody; idempotencyKey: string }) =>
      apiClient.post(sessionsPath(courseId), liveSession, { body, headers: { [IDEMPOTENCY_HEADER]: idempotencyKey } }),
    onSuccess: refresh,
  });
}

/** PATCH /api/courses/{courseId}/sessions/{sessionId}: changed at the provider first. */
export function useRescheduleSession(courseId: string) {
  const refresh = useRefreshSessions(courseId);
  return useMutation({
    mutationFn: ({ sessionId, body }: { sessionId: string; body: UpdateSessionBody }) =>
      apiClient.patch(`${sessionsPath(courseId)}/${encodeURIComponent(sessionId)}`, liveSession, { body }),
    onSuccess: refresh,
  });
}

/**
 * DELETE /api/courses/{courseId}/sessions/{sessionId}: the meeting is deleted at the provider, the session stays as
 * cancelled. Nothing (204) when the provider deleted it; the session (`providerSync: 'pending'`) when it has not yet.
 */
export function useCancelSession(courseId: string) {
  const refresh = useRefreshSessions(courseId);
  return useMutation({
    mutationFn: (sessionId: string) => apiClient.delete(`${sessionsPath(courseId)}/${encodeURIComponent(sessionId)}`, liveSession.nullable()),
    onSuccess: refresh,
  });
}
