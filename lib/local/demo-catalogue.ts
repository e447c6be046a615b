import { sanitizeLessonHtml } from '#adapters/html-sanitizer.ts';
import { courseChangeJobs } from '#functions/composition/course-jobs.ts';
import type { CreateLessonBody } from '#contracts/courses.ts';
import { createAccount } from '#core/accounts/create-account.ts';
import { createCourse, updateCourse } from '#core/courses/courses.ts';
import { createLesson } from '#core/courses/lessons.ts';
import { saveLearnerNotes } from '#core/crm/learners.ts';
import { localDay, progressOf } from '#core/enrollments/progress.ts';
import { reportMoves } from '#core/reports/course-report.ts';
import type { Clock, User } from '#core/ports.ts';
import { courseRepository, crmRepository, directoryService, enrollmentRepository, ids, userRepository } from '#functions/composition/deps.ts';

/** Every demo learner signs in with this password (the browser tests and a developer trying the learner side). */
export const DEMO_LEARNER_PASSWORD = 'LearnerPass123';

const DAY = 24 * 60 * 60 * 1000;
const VIDEO = 'https://www.youtube.com/watch?v=aqz-KE-bpKQ';

const text = (title: string, body: string): CreateLessonBody => ({ title, kind: 'text', body });
const video = (title: string): CreateLessonBody => ({ title, kind: 'video', videoUrl: VIDEO });

/** The demo creator's two published courses; `createdDaysAgo` spreads them in time like a real catalogue. */
export const demoCourses = [
  {
    title: 'Sourdough Baking Basics',
    description: 'From a jar of flour and water to your first open-crumb loaf, in four short lessons.',
    createdDaysAgo: 60,
    lessons: [
      text('Welcome and what you need', '<h2>Welcome</h2><p>All you need is <strong>flour, water, salt</strong> and a little patience.</p><ul><li>A kitchen scale</li><li>A large bowl</li><li>A lidded pot</li></ul>'),
      video('Feeding your starter'),
      text('Mixing and folding', '<h2>Mixing</h2><p>Mix, rest for 30 minutes, then fold every half hour:</p><ol><li>Wet your hands</li><li>Stretch one side up</li><li>Fold it over, turn the bowl</li></ol>'),
      text('Shaping and baking', '<h2>Shaping</h2><p>Shape gently, proof overnight in the fridge, and bake <em>hot</em>: 250°C, lid on for 20 minutes.</p>'),
    ],
  },
  {
    title: 'Smartphone Photography',
    description: 'Take photos you are proud of with the phone already in your pocket.',
    createdDaysAgo: 45,
    lessons: [
      text('Light comes first', '<h2>Find the light</h2><p>Stand with the light <strong>beside</strong> your subject, not behind it.</p>'),
      video('Composition in practice'),
      text('Focus and exposure', '<p>Tap to focus, then slide to darken or brighten. Lock both with a long press.</p>'),
      text('Editing on your phone', '<ul><li>Straighten</li><li>Crop</li><li>Lift the shadows a little</li></ul>'),
      text('Your first photo story', '<p>Tell a story in five photos: a wide shot, a detail, a portrait, an action and an ending.</p>'),
    ],
  },
] as const;

/** One enrolment of a demo learner: when they enrolled and when they completed which lessons (days before now). */
interface DemoEnrollment {
  course: 0 | 1;
  enrolledDaysAgo: number;
  completed: readonly (readonly [lesson: number, daysAgo: number])[];
}

/** A dozen learners at every stage: finished, active, just started, and stalled (no activity for 14 days or more). */
export const demoLearners: readonly { email: string; enrollments: readonly DemoEnrollment[]; note?: string }[] = [
  // Active yesterday and today: a study streak of 2 on 'My Learning'.
  { email: 'learner@example.com', enrollments: [{ course: 0, enrolledDaysAgo: 30, completed: [[0, 28], [1, 20], [2, 1]] }, { course: 1, enrolledDaysAgo: 10, completed: [[0, 9], [1, 0]] }] },
  { email: 'maya.patel@example.com', enrollments: [{ course: 0, enrolledDaysAgo: 40, completed: [[0, 38], [1, 35], [2, 30], [3, 25]] }] },
  { email: 'tom.nguyen@example.com', enrollments: [{ course: 0, enrolledDaysAgo: 35, completed: [[0, 33]] }], note: 'Stalled after the first lesson. Offered a call to help with the starter.' },
  { email: 'sofia.rossi@example.com', enrollments: [{ course: 1, enrolledDaysAgo: 20, completed: [[0, 19], [1, 15], [2, 5]] }] },
  { email: 'liam.oconnor@example.com', enrollments: [{ course: 1, enrolledDaysAgo: 25, completed: [] }] },
  { email: 'chen.wei@example.com', enrollments: [{ course: 0, enrolledDaysAgo: 5, completed: [[0, 4]] }, { course: 1, enrolledDaysAgo: 5, completed: [] }] },
  { email: 'fatima.ali@example.com', enrollments: [{ course: 1, enrolledDaysAgo: 42, completed: [[0, 40], [1, 36], [2, 30], [3, 24], [4, 18]] }] },
  { email: 'jonas.berg@example.com', enrollments: [{ course: 0, enrolledDaysAgo: 22, completed: [[0, 21], [1, 18]] }] },
  { email: 'priya.sharma@example.com', enrollments: [{ course: 1, enrolledDaysAgo: 12, completed: [[0, 11], [1, 3]] }] },
  { email: 'noah.kim@example.com', enrollments: [{ course: 0, enrolledDaysAgo: 2, completed: [] }] },
  { email: 'emma.dubois@example.com', enrollments: [{ course: 0, enrolledDaysAgo: 16, completed: [[0, 15], [1, 14], [2, 1]] }] },
  { email: 'lucas.silva@example.com', enrollments: [{ course: 1, enrolledDaysAgo: 30, completed: [[0, 29], [1, 27], [2, 26], [3, 16]] }] },
];

/** The demo learner the README, the banner and the browser tests name. */
export const demoLearnerEmail = demoLearners[0]!.email;

/** A clock stopped `days` before `now`: the use cases date what they write as if it happened then. */
const daysAgo = (now: number, days: number): Clock => ({ now: () => new Date(now - days * DAY) });

/** Runs `work` over `items`, `width` at a time (the local Cognito and DynamoDB are happier with a few at once). */
const inBatches = async <T>(items: readonly T[], width: number, work: (item: T) => Promise<void>): Promise<void> => {
  for (let i = 0; i < items.length; i += width) await Promise.all(items.slice(i, i + width).map(work));
};

/**
 * The demo catalogue, the way the product makes it: courses, lessons and publishing through their use cases, learner
 * accounts through the same account use case as an invitation (with the shared password instead of a temporary one),
 * enrolments and lesson completions through the EnrollmentRepository (the same writes as POST .../enrollments and
 * .../complete, without their re-reads: the seed must take a few seconds), the note through the CRM use case. Each is
 * dated when it "happened" so progress and last activity spread over the past weeks, some learners stalled.
 * Idempotent: a course that exists (by title) is left as it is, an enrolment that exists (active or removed) too, and
 * a note is only written when there is none.
 */
export const seedDemoCatalogue = async (input: { creatorEmail: string; log: (line: string) => void }): Promise<void> => {
  const users = userRepository();
  const creatorId = await users.getUserIdByEmail(input.creatorEmail);
  if (!creatorId) return;
  const now = Date.now();
  const courses = courseRepository();
  const enrollments = enrollmentRepository();
  const existing = await courses.listByCreator(creatorId);

  let created = 0;
  const courseIds = await Promise.all(
    demoCourses.map(async (demo) => {
      const found = existing.find((course) => course.title === demo.title);
      if (found) return found.id;
      const clock = daysAgo(now, demo.createdDaysAgo);
      const course = await createCourse({ courses, clock, ids }, { creatorId, body: { title: demo.title, description: demo.description } });
      for (const lesson of demo.lessons) await createLesson({ courses, clock, ids, sanitize: sanitizeLessonHtml }, { creatorId, courseId: course.id, body: lesson });
      // Publishing copies nothing: the job queue is never used here (a rename would start a 'course-changed' run).
      await updateCourse({ courses, clock, jobs: courseChangeJobs() }, { creatorId, courseId: course.id, body: { status: 'published' } });
      created++;
      return course.id;
    }),
  );

  // Accounts a few at a time (the local Cognito keeps its users in a file), then every learner's enrolments and
  // progress at once: each learner's writes are their own.
  const accounts = new Map<string, User>();
  await inBatches(demoLearners, 4, async (learner) => {
    const oldest = Math.max(...learner.enrollments.map((e) => e.enrolledDaysAgo));
    const id = await users.getUserIdByEmail(learner.email);
    const account = id
      ? await users.getUser(id)
      : await createAccount(
          { users, directory: directoryService(), clock: daysAgo(now, oldest + 3) },
          { email: learner.email, role: 'learner', password: DEMO_LEARNER_PASSWORD },
        );
    if (account?.role === 'learner') accounts.set(learner.email, account);
  });
  const courseList = await Promise.all(
    courseIds.map(async (id) => {
      const course = await courses.getCourse(id);
      if (!course) throw new Error(`the demo course ${id} went missing while seeding`);
      return course;
    }),
  );

  let enrolled = 0;
  await inBatches(demoLearners, demoLearners.length, async (learner) => {
    const account = accounts.get(learner.email);
    if (!account) return;
    for (const plan of learner.enrollments) {
      const course = courseList[plan.course]!;
      const lessonIds = course.lessons.map((lesson) => lesson.id);
      // Enrolled by an earlier run (or removed since by the developer): left as it is.
      if (await enrollments.get(course.id, account.id)) continue;
      const result = await enrollments.enroll({
        courseId: course.id,
        learnerId: account.id,
        creatorId,
        learnerEmail: account.email,
        learnerJoinedAt: account.createdAt,
        courseTitle: course.title,
        enrolledAt: new Date(now - plan.enrolledDaysAgo * DAY).toISOString(),
      });
      if (result.status !== 'enrolled') continue;
      enrolled++;
      // What POST .../complete does for each lesson, written straight through the repository (the use case would
      // read the course and the enrolment again each time: too slow for a seed of a few seconds).
      // The course report's figures move with each completion, as the use case's would (its marks kept here).
      const completed: string[] = [];
      const marks: { startedAt?: string; reachedLessonIds: string[] } = { reachedLessonIds: [] };
      for (const [index, daysBefore] of plan.completed) {
        const lessonId = lessonIds[index]!;
        const at = new Date(now - daysBefore * DAY);
        const progress = progressOf([...completed, lessonId], lessonIds);
        const report = reportMoves(marks, { kind: 'completed', lessonId, courseCompleted: progress === 100 }, at.toISOString());
        marks.startedAt ??= at.toISOString();
        marks.reachedLessonIds.push(lessonId);
        await enrollments.completeLesson({
          courseId: course.id,
          learnerId: account.id,
          creatorId,
          lessonId,
          seenCount: completed.length,
          progress,
          at: at.toISOString(),
          day: localDay(at, 'UTC'),
          ...(progress === 100 ? { completedAt: at.toISOString() } : {}),
          ...(report ? { report } : {}),
        });
        completed.push(lessonId);
      }
    }
    if (learner.note && !(await crmRepository().getNote(creatorId, account.id))) {
      await saveLearnerNotes({ crm: crmRepository(), clock: daysAgo(now, 1) }, { creatorId, learnerId: account.id, notes: learner.note });
    }
  });
  if (created || enrolled) input.log(`[seed] demo catalogue: ${created} course(s) created, ${enrolled} enrolment(s) made`);
};
