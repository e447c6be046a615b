import { useMutation, useQueryClient } from '@tanstack/react-query';
import * as z from 'zod';
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
import { toast, toastError } from '@/components/ui/toaster.tsx';
import { apiClient } from '@/lib/api-client.ts';
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
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ lessonId, body }: { lessonId: string; body: UpdateLessonBody }) =>
      apiClient.patch(`${coursePath(courseId)}/lessons/${encodeURIComponent(lessonId)}`, lesson, { body }),
    onSuccess: () => {
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
    onError: (error) => toastError(error, m.failed),
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
