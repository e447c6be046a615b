import { infiniteQueryOptions, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { learnerCertificateList, learnerProfile, type LearnerProfile, type LearnerProfileBody } from '@contracts/certificates.ts';
import {
  completeLessonResponse,
  learnerCourseList,
  learnerCourseOutline,
  learnerLesson,
  learnerSummary,
  quizAttemptResult,
  type LearnerCourseOutline,
  type LearnerLesson,
  type QuizAttemptResult,
} from '@contracts/courses.ts';
import { fileUrlResponse } from '@contracts/files.ts';
import { mySubmissionAnswer, submissionCreated, submissionFileUpload, type CreateSubmissionBody, type StartSubmissionFileBody } from '@contracts/submissions.ts';
import { learnerMembershipList } from '@contracts/memberships.ts';
import { learnerSessionList } from '@contracts/live-sessions.ts';
import { browseList } from '@contracts/storefront.ts';
import { toast, toastError } from '@/components/ui/toaster.tsx';
import { apiClient } from '@/lib/api-client.ts';
import { ApiError } from '@/lib/api-error.ts';

/** The browser's IANA zone: the study streak counts the learner's own days. */
export const browserTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone;

const coursePath = (courseId: string) => `/api/learner/courses/${encodeURIComponent(courseId)}`;

/** GET /api/learner/summary?timeZone=: 'My Learning' (figures and the continue-learning list). */
export const learnerSummaryQueryOptions = () =>
  queryOptions({
    queryKey: ['learning', 'summary'] as const,
    queryFn: ({ signal }) =>
      apiClient.get(`/api/learner/summary?timeZone=${encodeURIComponent(browserTimeZone())}`, learnerSummary, { signal }),
  });

/**
 * GET /api/learner/sessions: the scheduled live sessions of the learner's courses that have not ended, soonest first;
 * with `courseId` (the course player), that course's only.
 */
export const learnerSessionsQueryOptions = (courseId?: string) =>
  queryOptions({
    queryKey: courseId === undefined ? (['learning', 'sessions'] as const) : (['learning', 'sessions', courseId] as const),
    queryFn: ({ signal }) =>
      apiClient.get(courseId === undefined ? '/api/learner/sessions' : `/api/learner/sessions?courseId=${encodeURIComponent(courseId)}`, learnerSessionList, { signal }),
  });

/** GET /api/learner/sessions/{id}/calendar.ics: the session's calendar file (RFC 5545), with the learner's token. */
export const fetchSessionCalendar = (sessionId: string): Promise<Blob> =>
  apiClient.getFile(`/api/learner/sessions/${encodeURIComponent(sessionId)}/calendar.ics`, 'text/calendar');

/** The URL of one page of a learner's list (`path`: their courses or certificates). */
const pageUrl = (path: string, cursor?: string): string => (cursor ? `${path}?cursor=${encodeURIComponent(cursor)}` : path);

/** GET /api/learner/courses: the learner's courses, page after page ('Load more' follows `nextCursor`), each page most recent activity first. */
export const learnerCoursesQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: ['learning', 'courses'] as const,
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) => apiClient.get(pageUrl('/api/learner/courses', pageParam), learnerCourseList, { signal }),
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });

/** GET /api/learner/browse: the courses on sale of the creators the learner learns with, not yet theirs. */
export const learnerBrowseQueryOptions = () =>
  queryOptions({
    queryKey: ['learning', 'browse'] as const,
    queryFn: ({ signal }) => apiClient.get('/api/learner/browse', browseList, { signal }),
  });

const certificatesKey = ['learning', 'certificates'] as const;
const profileKey = ['learning', 'profile'] as const;

/** GET /api/learner/certificates: the learner's certificates, newest first, page after page ('Load more' follows `nextCursor`). */
export const learnerCertificatesQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: [...certificatesKey, 'list'] as const,
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) => apiClient.get(pageUrl('/api/learner/certificates', pageParam), learnerCertificateList, { signal }),
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });

/** One of the learner's certificates (its printable copy): their list read page after page until it is found (undefined: not theirs). */
export const learnerCertificateQueryOptions = (id: string) =>
  queryOptions({
    queryKey: [...certificatesKey, 'one', id] as const,
    queryFn: async ({ signal }) => {
      let cursor: string | undefined;
      do {
        const page = await apiClient.get(pageUrl('/api/learner/certificates', cursor), learnerCertificateList, { signal });
        const found = page.items.find((item) => item.id === id);
        if (found) return found;
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      return null;
    },
  });

/** How often the profile is asked for again while the learner's certificates are being re-issued with their name. */
export const PROFILE_POLL_MS = 5_000;

/**
 * GET /api/learner/profile: the learner's "Name on certificates" ('' until given). While their certificates are being
 * re-issued with a new name (`certificatesUpdating`, a background job of about a minute) it is asked for again every
 * 5 s; once that is over, the certificates are loaded again so they show the name they now carry.
 */
export const learnerProfileQueryOptions = () =>
  queryOptions({
    queryKey: profileKey,
    queryFn: async ({ client, signal }): Promise<LearnerProfile> => {
      const before = client.getQueryData<LearnerProfile>(profileKey);
      const profile = await apiClient.get('/api/learner/profile', learnerProfile, { signal });
      if (before?.certificatesUpdating && !profile.certificatesUpdating) void client.invalidateQueries({ queryKey: certificatesKey });
      return profile;
    },
    refetchInterval: (query) => (query.state.data?.certificatesUpdating ? PROFILE_POLL_MS : false),
  });

/**
 * PUT /api/learner/profile {certificateName}: the saved profile replaces the cached one (with `certificatesUpdating`
 * when the name changed, which starts the polling above), and the certificates are loaded again when next shown.
 * The screen says how it went (its toast, or the server's 400 under the field).
 */
export function useSaveLearnerProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: LearnerProfileBody) => apiClient.put('/api/learner/profile', learnerProfile, { body }),
    onSuccess: (saved) => {
      queryClient.setQueryData(profileKey, saved);
      void queryClient.invalidateQueries({ queryKey: certificatesKey });
    },
  });
}

/** Every cached read of one course (its outline and its lessons): what a refusal reloads. */
const courseKey = (courseId: string) => ['learning', 'course', courseId] as const;

/**
 * GET /api/learner/courses/{id}/outline: the course's lessons in order with their ticks, and the progress (no lesson
 * body: the player reads each lesson on its own). 404 unless enrolled.
 */
export const learnerOutlineQueryOptions = (courseId: string) =>
  queryOptions({
    queryKey: [...courseKey(courseId), 'outline'] as const,
    queryFn: ({ signal }) => apiClient.get(`${coursePath(courseId)}/outline`, learnerCourseOutline, { signal }),
  });

/** GET /api/learner/courses/{id}/lessons/{lessonId}: one lesson (text, video, files, quiz without its answers). */
export const learnerLessonQueryOptions = (courseId: string, lessonId: string) =>
  queryOptions({
    queryKey: [...courseKey(courseId), 'lesson', lessonId] as const,
    queryFn: ({ signal }) => apiClient.get(`${coursePath(courseId)}/lessons/${encodeURIComponent(lessonId)}`, learnerLesson, { signal }),
  });

/** The cached outline with a lesson's completion applied: the progress, the course's completion, and the lesson's tick. */
const withProgress = (outline: LearnerCourseOutline, lessonId: string, change: { progress: number; completedAt: string | null; completed: boolean }): LearnerCourseOutline => ({
  ...outline,
  progress: change.progress,
  completedAt: change.completedAt,
  lastActivity: new Date().toISOString(),
  lessons: outline.lessons.map((lesson) => (lesson.id === lessonId && change.completed ? { ...lesson, completed: true } : lesson)),
});

/**
 * GET /api/learner/courses/{c}/files/{f}/url: a short-lived signed URL of a lesson's file (15 minutes). Asked for
 * when needed (a download, a video about to play), never cached across uses: a URL kept for later may have expired.
 */
export const learnerFileUrl = (courseId: string, fileId: string, signal?: AbortSignal) =>
  apiClient.get(`${coursePath(courseId)}/files/${encodeURIComponent(fileId)}/url`, fileUrlResponse, signal ? { signal } : {});

/**
 * POST .../lessons/{lessonId}/complete. The answer's progress goes straight into the cached outline (the bar moves at
 * once, the lesson gets its tick) and the cached lesson; the summary and the course list are refetched when next shown.
 */
export function useCompleteLesson(courseId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (lessonId: string) =>
      apiClient.post(`${coursePath(courseId)}/lessons/${encodeURIComponent(lessonId)}/complete`, completeLessonResponse, {
        body: { timeZone: browserTimeZone() },
      }),
    onSuccess: ({ progress, completedAt }, lessonId) => {
      queryClient.setQueryData<LearnerCourseOutline>(learnerOutlineQueryOptions(courseId).queryKey, (outline) =>
        outline ? withProgress(outline, lessonId, { progress, completedAt, completed: true }) : outline,
      );
      queryClient.setQueryData<LearnerLesson>(learnerLessonQueryOptions(courseId, lessonId).queryKey, (lesson) => (lesson ? { ...lesson, completed: true } : lesson));
      void queryClient.invalidateQueries({ queryKey: ['learning', 'summary'] });
      void queryClient.invalidateQueries({ queryKey: ['learning', 'courses'] });
      if (completedAt) toast.success('Course completed', { description: 'You finished every lesson of this course. Well done!' });
    },
    onError: () => toast.error('Error', { description: 'The lesson could not be marked complete. Try again.' }),
  });
}

/** The cached quiz lesson with one attempt's answer applied: the quiz's figures, and on a pass the lesson's tick. */
function withAttempt(lesson: LearnerLesson, result: QuizAttemptResult): LearnerLesson {
  if (!lesson.quiz) return lesson;
  return {
    ...lesson,
    completed: lesson.completed || result.passed,
    quiz: {
      ...lesson.quiz,
      attempts: lesson.quiz.attempts + 1,
      attemptsLeft: result.attemptsLeft,
      bestScore: Math.max(lesson.quiz.bestScore ?? 0, result.score),
      passed: lesson.quiz.passed || result.passed,
      review: result.review ?? lesson.quiz.review,
    },
  };
}

/**
 * POST .../lessons/{lessonId}/attempts {answers}: per question in the order shown, the chosen option indexes. The
 * answer goes straight into the cached lesson and outline, like 'Mark complete' (a pass completes the lesson: its
 * tick and the progress bar move at once). A refusal (409: passed already, no attempts left) is toasted in the
 * server's words, and the course's outline and lessons are loaded again so the quiz shows where it really stands.
 */
export function useSubmitQuizAttempt(courseId: string) {
  const queryClient = useQueryClient();
  const outlineKey = learnerOutlineQueryOptions(courseId).queryKey;
  return useMutation({
    mutationFn: ({ lessonId, answers }: { lessonId: string; answers: number[][] }) =>
      apiClient.post(`${coursePath(courseId)}/lessons/${encodeURIComponent(lessonId)}/attempts`, quizAttemptResult, { body: { answers } }),
    onSuccess: (result, { lessonId }) => {
      const before = queryClient.getQueryData<LearnerCourseOutline>(outlineKey);
      queryClient.setQueryData<LearnerLesson>(learnerLessonQueryOptions(courseId, lessonId).queryKey, (lesson) => (lesson ? withAttempt(lesson, result) : lesson));
      queryClient.setQueryData<LearnerCourseOutline>(outlineKey, (outline) =>
        outline ? withProgress(outline, lessonId, { progress: result.progress, completedAt: result.completedAt, completed: result.passed }) : outline,
      );
      void queryClient.invalidateQueries({ queryKey: ['learning', 'summary'] });
      void queryClient.invalidateQueries({ queryKey: ['learning', 'courses'] });
      if (result.completedAt && !before?.completedAt) {
        toast.success('Course completed', { description: 'You finished every lesson of this course. Well done!' });
      }
    },
    onError: (error) => {
      toastError(error, 'Your answers could not be sent. Try again.');
      if (error instanceof ApiError && error.status === 409) void queryClient.invalidateQueries({ queryKey: courseKey(courseId) });
    },
  });
}

/** GET /api/learner/memberships: the memberships the learner holds now (their dashboard's 'Your memberships'). */
export const learnerMembershipsQueryOptions = () =>
  queryOptions({
    queryKey: ['learner', 'memberships'] as const,
    queryFn: ({ signal }) => apiClient.get('/api/learner/memberships', learnerMembershipList, { signal }),
  });

const submissionsPath = (courseId: string, lessonId: string) => `${coursePath(courseId)}/lessons/${encodeURIComponent(lessonId)}/submissions`;

/** GET .../lessons/{lessonId}/submissions: the learner's latest submission of an assignment lesson, null before any. */
export const mySubmissionQueryOptions = (courseId: string, lessonId: string) =>
  queryOptions({
    queryKey: [...courseKey(courseId), 'submission', lessonId] as const,
    queryFn: ({ signal }) => apiClient.get(submissionsPath(courseId, lessonId), mySubmissionAnswer, { signal }),
  });

/**
 * POST .../lessons/{lessonId}/submissions {text}: hands the work in, then reads the learner's latest again (it now
 * waits for review). The form says how it went: the server's 400 under the field; a 409 (handed in already, e.g. from
 * another tab) reloads the submission, so the screen shows where it really stands.
 */
export function useSubmitAssignment(courseId: string, lessonId: string) {
  const queryClient = useQueryClient();
  const key = mySubmissionQueryOptions(courseId, lessonId).queryKey;
  return useMutation({
    mutationFn: (body: CreateSubmissionBody) => apiClient.post(submissionsPath(courseId, lessonId), submissionCreated, { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: key }),
    onError: (error) => {
      if (error instanceof ApiError && error.status === 409) void queryClient.invalidateQueries({ queryKey: key });
    },
  });
}

/** POST .../lessons/{lessonId}/submission-files: a presigned PUT for one file the learner is about to hand in. */
export const startSubmissionFile = (courseId: string, lessonId: string, body: StartSubmissionFileBody) =>
  apiClient.post(`${coursePath(courseId)}/lessons/${encodeURIComponent(lessonId)}/submission-files`, submissionFileUpload, { body });

/** A signed download URL of a file the learner handed in: the creator's route, which answers its learner too (attachment only). */
export const mySubmissionFileUrl = (submissionId: string, fileId: string) =>
  apiClient.get(`/api/submissions/${encodeURIComponent(submissionId)}/files/${encodeURIComponent(fileId)}/url`, fileUrlResponse);
