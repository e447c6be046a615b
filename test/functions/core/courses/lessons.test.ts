import { describe, expect, it } from 'vitest';
import { FORBIDDEN_HTML, sanitizeLessonHtml } from '#adapters/html-sanitizer.ts';
import { LESSONS_PER_COURSE_MAX } from '#contracts/courses.ts';
import { quizDefinition } from '#contracts/courses.ts';
import { ConflictError, NotFoundError, ValidationError } from '#core/errors.ts';
import { createCourse, getCourse } from '#core/courses/courses.ts';
import { createLesson, deleteLesson, reorderLessons, updateLesson } from '#core/courses/lessons.ts';
import { xssPayloads } from '#test/support/xss-corpus.ts';
import { NOW, sequentialIds, testClock } from '#test/functions/fakes/clock.ts';
import { memoryCourses, recordingRenames } from '#test/functions/fakes/courses.ts';
import { memoryFiles, memoryFileStore } from '#test/functions/fakes/files.ts';

const VIDEO = 'https://www.youtube.com/watch?v=dQw4w9WgXcQ';

const setup = async () => {
  const files = memoryFiles();
  const changes = recordingRenames();
  const d = { courses: memoryCourses(files.all), files, store: memoryFileStore(), clock: testClock(), ids: sequentialIds(), sanitize: sanitizeLessonHtml, jobs: changes.jobs };
  const course = await createCourse(d, { creatorId: 'ann', body: { title: 'Knife skills' } });
  return { ...d, courseId: course.id, changes };
};
type Deps = Awaited<ReturnType<typeof setup>>;

const text = (d: Deps, title: string, body = `<p>${title}</p>`) => createLesson(d, { creatorId: 'ann', courseId: d.courseId, body: { title, kind: 'text', body } });
const video = (d: Deps, title: string, videoUrl = VIDEO) => createLesson(d, { creatorId: 'ann', courseId: d.courseId, body: { title, kind: 'video', videoUrl } });
const lessonsOf = async (d: Deps) => (await getCourse(d, { creatorId: 'ann', courseId: d.courseId })).lessons;

describe('adding lessons', () => {
  it('appends text and video lessons in order and counts them on the course', async () => {
    const d = await setup();
    const first = await text(d, 'Grip');
    const second = await video(d, 'Watch me chop');
    expect(first).toEqual({ id: 'id-2', courseId: d.courseId, title: 'Grip', kind: 'text', body: '<p>Grip</p>', videoUrl: null, quiz: null, assignment: null, position: 0, release: { kind: 'immediate' }, createdAt: NOW, updatedAt: NOW, files: [] });
    expect(second).toMatchObject({ kind: 'video', body: null, videoUrl: VIDEO, position: 1 });
    expect((await lessonsOf(d)).map((l) => [l.title, l.position])).toEqual([['Grip', 0], ['Watch me chop', 1]]);
    expect((await getCourse(d, { creatorId: 'ann', courseId: d.courseId })).lessonCount).toBe(2);
  });

  it('keeps the rich text a creator writes: headings, lists, links (rel noopener), emphasis, code, quotes', async () => {
    const d = await setup();
    const body = '<h2>Grip</h2><ul><li><strong>Pinch</strong> the <em>blade</em></li></ul><ol><li>one</li></ol><p><a href="https://example.com/knives">Read more</a></p><pre><code>chop()</code></pre><blockquote>Sharp is safe.</blockquote>';
    const saved = await text(d, 'Grip', body);
    expect(saved.body).toBe(body.replace('href="https://example.com/knives"', 'href="https://example.com/knives" rel="noopener"'));
  });

  it('saves an XSS payload as harmless text or nothing, never as markup matching FORBIDDEN_HTML', async () => {
    const d = await setup();
    for (const payload of xssPayloads.slice(0, 40)) {
      const saved = await createLesson(d, { creatorId: 'ann', courseId: d.courseId, body: { title: 'x', kind: 'text', body: `<p>Hi</p>${payload}` } });
      expect(saved.body, payload).not.toMatch(FORBIDDEN_HTML);
      expect(saved.body, payload).toContain('<p>Hi</p>');
    }
  });

  it('drops styles, classes, images and links to anything but http, https and mailto', async () => {
    const d = await setup();
    const saved = await text(d, 'x', '<p style="color:red" class="big">a<img src="https://x/y.png"><a href="javascript:alert(1)">j</a><a href="data:text/html,x">d</a><a href="mailto:me@example.com">m</a></p>');
    expect(saved.body).toBe('<p>a<a>j</a><a>d</a><a href="mailto:me@example.com" rel="noopener">m</a></p>');
  });

  it('makes a video lesson without a URL, its video to be uploaded (docs/api.md "Course files")', async () => {
    const d = await setup();
    const saved = await createLesson(d, { creatorId: 'ann', courseId: d.courseId, body: { title: 'Upload coming', kind: 'video' } });
    expect(saved).toMatchObject({ kind: 'video', body: null, videoUrl: null, files: [] });
  });

  it('refuses a video lesson with a body', async () => {
    const d = await setup();
    await expect(createLesson(d, { creatorId: 'ann', courseId: d.courseId, body: { title: 'v', kind: 'video', videoUrl: VIDEO, body: '<p>x</p>' } })).rejects.toThrow(
      ValidationError,
    );
    expect(await lessonsOf(d)).toEqual([]);
  });

  it('refuses a lesson the sanitizer cannot make safe (400), writing nothing', async () => {
    const d = { ...(await setup()), sanitize: () => { throw new Error('no fixed point'); } };
    await expect(text(d, 'x')).rejects.toThrow(ValidationError);
    expect(d.courses.calls('createLesson')).toBe(0);
  });

  it(`stops at ${LESSONS_PER_COURSE_MAX} lessons (409)`, async () => {
    const d = await setup();
    for (let i = 0; i < LESSONS_PER_COURSE_MAX; i++) await video(d, `L${i}`);
    await expect(video(d, 'One too many')).rejects.toThrow(ConflictError);
  });
});

describe('quiz lessons', () => {
  const quiz = quizDefinition.parse({ passPercent: 80, questions: [{ prompt: 'Sharp or dull?', type: 'single', options: ['Sharp', 'Dull'], correct: [0] }] });

  it('keep their quiz (right answers included, for the creator), never a body or video; switching kind drops the quiz', async () => {
    const d = await setup();
    const made = await createLesson(d, { creatorId: 'ann', courseId: d.courseId, body: { title: 'Check', kind: 'quiz', quiz } });
    expect(made).toMatchObject({ kind: 'quiz', body: null, videoUrl: null, quiz: { passPercent: 80, maxAttempts: null, shuffle: false, questions: [{ correct: [0] }] } });
    const edit = (body: Parameters<typeof updateLesson>[1]['body']) => updateLesson(d, { creatorId: 'ann', courseId: d.courseId, lessonId: made.id, body });
    expect(await edit({ quiz: { ...quiz, passPercent: 50 } })).toMatchObject({ quiz: { passPercent: 50 } });
    await expect(edit({ body: '<p>Notes</p>' })).rejects.toThrow(ValidationError);
    expect(await edit({ kind: 'text', body: '<p>Notes</p>' })).toMatchObject({ kind: 'text', quiz: null, body: '<p>Notes</p>' });
    await expect(edit({ kind: 'quiz' })).rejects.toThrow(ValidationError);
    await expect(edit({ quiz })).rejects.toThrow(ValidationError);
    expect(await edit({ kind: 'quiz', quiz })).toMatchObject({ kind: 'quiz', body: null, quiz: { passPercent: 80 } });
  });

  it('the contract refuses a quiz with no right answer, a right answer that is not an option, or two for a single choice', () => {
    const question = quiz.questions[0]!;
    for (const bad of [{ ...question, correct: [] }, { ...question, correct: [2] }, { ...question, correct: [0, 1] }, { ...question, options: ['Only one'] }]) {
      expect(quizDefinition.safeParse({ passPercent: 50, questions: [bad] }).success, JSON.stringify(bad)).toBe(false);
    }
    expect(quizDefinition.safeParse({ passPercent: 50, questions: [{ ...question, type: 'multiple', correct: [0, 1] }] }).success).toBe(true);
  });
});

describe('editing a lesson', () => {
  it('changes the title and sanitizes a new body', async () => {
    const d = await setup();
    const { id } = await text(d, 'Grip');
    d.clock.advance(1000);
    const edited = await updateLesson(d, { creatorId: 'ann', courseId: d.courseId, lessonId: id, body: { title: 'Grip 2', body: '<p onclick="x()">New</p><script>x()</script>' } });
    expect(edited).toMatchObject({ title: 'Grip 2', body: '<p>New</p>', updatedAt: '2026-11-21T12:00:01.000Z', createdAt: NOW });
    expect((await lessonsOf(d))[0]).toEqual(edited);
  });

  it('switches kind: to video drops the body, to text drops the video', async () => {
    const d = await setup();
    const { id } = await text(d, 'Grip');
    const asVideo = await updateLesson(d, { creatorId: 'ann', courseId: d.courseId, lessonId: id, body: { kind: 'video', videoUrl: VIDEO } });
    expect(asVideo).toMatchObject({ kind: 'video', body: null, videoUrl: VIDEO });
    const asText = await updateLesson(d, { creatorId: 'ann', courseId: d.courseId, lessonId: id, body: { kind: 'text' } });
    expect(asText).toMatchObject({ kind: 'text', body: '', videoUrl: null });
  });

  it('switches a text lesson to a video lesson without a URL (its video to be uploaded)', async () => {
    const d = await setup();
    const { id } = await text(d, 'Grip');
    expect(await updateLesson(d, { creatorId: 'ann', courseId: d.courseId, lessonId: id, body: { kind: 'video' } })).toMatchObject({ kind: 'video', body: null, videoUrl: null });
  });

  it('refuses a change that leaves an invalid lesson: a text lesson with a video URL', async () => {
    const d = await setup();
    const { id } = await text(d, 'Grip');
    await expect(updateLesson(d, { creatorId: 'ann', courseId: d.courseId, lessonId: id, body: { videoUrl: VIDEO } })).rejects.toThrow(ValidationError);
    expect((await lessonsOf(d))[0]).toMatchObject({ kind: 'text', body: '<p>Grip</p>' });
  });

  it('is 404 for a lesson the course does not have', async () => {
    const d = await setup();
    await expect(updateLesson(d, { creatorId: 'ann', courseId: d.courseId, lessonId: 'nope', body: { title: 'x' } })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: 'Lesson not found.',
    });
  });
});

describe('deleting and reordering lessons', () => {
  it('deletes a lesson; the others keep their order, numbered from 0', async () => {
    const d = await setup();
    const a = await text(d, 'A');
    const b = await text(d, 'B');
    await text(d, 'C');
    expect((await deleteLesson(d, { creatorId: 'ann', courseId: d.courseId, lessonId: b.id })).title).toBe('B');
    expect((await lessonsOf(d)).map((l) => [l.title, l.position])).toEqual([['A', 0], ['C', 1]]);
    expect((await getCourse(d, { creatorId: 'ann', courseId: d.courseId })).lessonCount).toBe(2);
    await expect(deleteLesson(d, { creatorId: 'ann', courseId: d.courseId, lessonId: b.id })).rejects.toThrow(NotFoundError);
    expect(a.position).toBe(0);
    // Its files go by one 'course-changed' run (core/courses/changes.ts); the second delete, a 404, started none.
    expect(d.changes.started).toEqual([{ change: 'lesson-deleted', courseId: d.courseId, lessonId: b.id, version: expect.any(String) }]);
  });

  it('reorders the lessons to the order given and answers the course in it', async () => {
    const d = await setup();
    const [a, b, c] = [await text(d, 'A'), await video(d, 'B'), await text(d, 'C')];
    const course = await reorderLessons(d, { creatorId: 'ann', courseId: d.courseId, body: { lessonIds: [c.id, a.id, b.id] } });
    expect(course.lessons.map((l) => [l.title, l.position])).toEqual([['C', 0], ['A', 1], ['B', 2]]);
    expect(await lessonsOf(d)).toEqual(course.lessons);
  });

  it('refuses an order that misses, repeats or invents a lesson (400), changing nothing', async () => {
    const d = await setup();
    const [a, b] = [await text(d, 'A'), await text(d, 'B')];
    for (const lessonIds of [[a.id], [a.id, a.id], [a.id, b.id, 'other'], [b.id, a.id, a.id]]) {
      await expect(reorderLessons(d, { creatorId: 'ann', courseId: d.courseId, body: { lessonIds } })).rejects.toThrow(ValidationError);
    }
    expect((await lessonsOf(d)).map((l) => l.title)).toEqual(['A', 'B']);
    expect(d.courses.calls('reorderLessons')).toBe(0);
  });
});

describe('another creator', () => {
  it('gets 404 on every lesson route of a course not theirs, and nothing changes', async () => {
    const d = await setup();
    const lesson = await text(d, 'A');
    const before = await getCourse(d, { creatorId: 'ann', courseId: d.courseId });
    const ref = { creatorId: 'bob', courseId: d.courseId };
    const attempts = [
      () => createLesson(d, { ...ref, body: { title: 'x', kind: 'text', body: 'x' } }),
      () => updateLesson(d, { ...ref, lessonId: lesson.id, body: { title: 'x' } }),
      () => deleteLesson(d, { ...ref, lessonId: lesson.id }),
      () => reorderLessons(d, { ...ref, body: { lessonIds: [lesson.id] } }),
    ];
    for (const attempt of attempts) await expect(attempt()).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'Course not found.' });
    expect(await getCourse(d, { creatorId: 'ann', courseId: d.courseId })).toEqual(before);
    expect(d.changes.started).toEqual([]);
  });
});
