import { Route, Routes } from 'react-router-dom';
import type { Course } from '@contracts/courses.ts';
import { subscription } from '@/test/fixtures.ts';
import { noIntegrations } from './fixtures.ts';
import { fakeApi, jsonResponse, renderWithProviders } from '@/test/render.tsx';
import { CourseEditorScreen } from '../screens/course-editor-screen.tsx';

/** The course the editor tests open. */
export const COURSE = '/api/courses/course-1';

/**
 * The course editor at course-1 on a fake server: `course()` (read at each request, so a test's changes show), and no
 * learners, licences, certificates, live sessions or connected meeting tools unless `answers` (which wins) says otherwise; the creator is on Pro (every control
 * open) unless `answers` answers GET /api/me/subscription otherwise. `search` opens it with a query (`?discussion=...`).
 */
export function renderCourseEditor(course: () => Course, answers: Parameters<typeof fakeApi>[0] = {}, { search = '' }: { search?: string } = {}) {
  const fetchMock = fakeApi({
    [`GET ${COURSE}`]: () => jsonResponse(200, course()),
    [`GET ${COURSE}/enrollments`]: () => jsonResponse(200, { items: [], nextCursor: null }),
    [`GET ${COURSE}/licenses`]: () => jsonResponse(200, { nextCursor: null, items: [] }),
    [`GET ${COURSE}/certificates`]: () => jsonResponse(200, { items: [] }),
    [`GET ${COURSE}/sessions`]: () => jsonResponse(200, { items: [] }),
    'GET /api/integrations': () => jsonResponse(200, noIntegrations),
    'GET /api/me/subscription': () => jsonResponse(200, subscription('pro')),
    // The AI tools' price table (issue 36): the lesson dialog shows each cost from it.
    'GET /api/ai/prices': () => jsonResponse(200, { landingPage: 15, courseOutline: 5, lessonDraft: 5, quizFromLesson: 3 }),
    // Each lesson's discussion (issue 35 point 1): empty unless a test says otherwise.
    ...Object.fromEntries(course().lessons.map((l) => [`GET ${COURSE}/lessons/${l.id}/comments`, () => jsonResponse(200, { items: [], nextCursor: null })])),
    ...answers,
  });
  const rendered = renderWithProviders(
    <Routes>
      <Route path="/dashboard/creator/courses/:courseId" element={<CourseEditorScreen />} />
    </Routes>,
    { path: `/dashboard/creator/courses/course-1${search}` },
  );
  return { ...rendered, fetchMock };
}
