import type { Course, CourseEnrollment, CourseSummary, Lesson } from '@contracts/courses.ts';
import type { IntegrationsView } from '@contracts/integrations.ts';
import type { LiveSession } from '@contracts/live-sessions.ts';

const at = '2026-11-20T10:00:00.000Z';

export const textLesson: Lesson = {
  id: 'lesson-1',
  courseId: 'course-1',
  title: 'Colour theory',
  kind: 'text',
  body: '<h2>Colours</h2><p>Mix <strong>warm</strong> and cool.</p>',
  videoUrl: null,
  quiz: null,
  position: 0,
  createdAt: at,
  updatedAt: at,
  files: [],
};

export const videoLesson: Lesson = {
  ...textLesson,
  id: 'lesson-2',
  title: 'First wash',
  kind: 'video',
  body: null,
  videoUrl: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
  position: 1,
};

export const paintingSummary: CourseSummary = {
  id: 'course-1',
  title: 'Watercolour for Beginners',
  description: 'Paint with confidence.',
  status: 'draft',
  lessonCount: 2,
  enrolledCount: 1,
  priceAmount: 0,
  seatPriceAmount: 0,
  createdAt: at,
};

export const paintingCourse: Course = { ...paintingSummary, updatedAt: at, lessons: [textLesson, videoLesson] };

export const enrolledLearner: CourseEnrollment = {
  learnerId: 'learner-1',
  email: 'ada@example.com',
  enrolledAt: at,
  progress: 50,
  lastActivity: at,
  completedAt: null,
};

export const quizLesson: Lesson = {
  ...textLesson,
  id: 'lesson-3',
  title: 'Check your colours',
  kind: 'quiz',
  body: null,
  quiz: {
    passPercent: 70,
    maxAttempts: 3,
    shuffle: false,
    questions: [
      { prompt: 'Which colour is warm?', type: 'single', options: ['Blue', 'Orange'], correct: [1] },
      { prompt: 'Which are primary colours?', type: 'multiple', options: ['Red', 'Green', 'Blue'], correct: [0, 2] },
    ],
  },
  position: 2,
};

/** No meeting tool connected (GET /api/integrations before any save). */
export const noIntegrations: IntegrationsView = {
  zoom: { enabled: false, apiKey: '', apiSecretSet: false, accountId: '', status: 'off' },
  teams: { enabled: false, tenantId: '', clientId: '', clientSecretSet: false, organizerEmail: '', status: 'off' },
  googleCalendar: { enabled: false, calendarId: '', consented: false, status: 'off' },
  updatedAt: null,
};

/** Zoom connected; Teams switched on but refused (not connected); Google off. */
export const zoomOnly: IntegrationsView = {
  ...noIntegrations,
  zoom: { enabled: true, apiKey: 'zoom-client', apiSecretSet: true, accountId: 'zoom-account', status: 'connected' },
  teams: { enabled: true, tenantId: 't', clientId: 'c', clientSecretSet: true, organizerEmail: 'host@example.com', status: 'error', error: 'Microsoft refused the secret.' },
  updatedAt: at,
};

/** A live session of course-1 starting `startsAt`. */
export const liveSessionOf = (id: string, title: string, startsAt: string, changes: Partial<LiveSession> = {}): LiveSession => ({
  id,
  courseId: 'course-1',
  title,
  description: '',
  startsAt,
  durationMinutes: 60,
  provider: 'zoom',
  joinUrl: `https://zoom.example/j/${id}`,
  hostUrl: `https://zoom.example/s/${id}`,
  status: 'scheduled',
  providerSync: 'done',
  createdAt: at,
  updatedAt: at,
  ...changes,
});
