import type { ReportMoves } from '#core/ports.ts';
import type { CourseFigures, CourseReportRepository } from '#core/reports/ports.ts';
import { readCounter, shardedCounter, shardUpdate } from '#data/sharded-counters.ts';

/**
 * The course report's figures (issue 29 point 3, docs/decisions/0045-course-reports.md), sharded as every counter many
 * writers move (data/sharded-counters.ts, decision 0035): one item per shard holds all of a course's figures.
 * Figures:  pk REPORT#<courseId>#<0..15>  sk FIGURES   type CourseReportFigures, plain numbers ADDed:
 *             started, completed                         learners with a first activity, learners who completed the course
 *             r#<lessonId>, c#<lessonId>                  learners who reached (opened, attempted or completed) / completed it
 *             qa#<lessonId>, qp#<lessonId>                the quiz's attempts / passed attempts
 *             qn#<lessonId>#<key>, qk#<lessonId>#<key>    answers / right answers of the question whose prompt hashes to key
 *           A write moves one shard (the learner's), in the same transaction as the progress write it counts and under
 *           that write's conditions (data/enrollments.ts completeLesson, reachLesson; data/quiz-attempts.ts record).
 *           Read: the 16 shards in one BatchGetItem, summed. The item's size grows with the course's lessons and
 *           questions (about 40 bytes each), never with its learners.
 * Marks on the enrolment (data/enrollments.ts owns the item): `startedAt` (set once) and `reachedLessonIds` (a list, each
 * lesson once): what this learner is counted in; each write is conditioned on the mark it sets being absent.
 */
export const reportKeys = {
  figures: (courseId: string) => shardedCounter(`REPORT#${courseId}`, 'FIGURES'),
};

/** The figures `moves` ADD (attribute name -> delta). */
export const figureDeltas = (moves: ReportMoves): Record<string, number> => {
  const deltas: Record<string, number> = {};
  const add = (name: string, n: number) => {
    if (n !== 0) deltas[name] = (deltas[name] ?? 0) + n;
  };
  if (moves.startedAt) add('started', 1);
  if (moves.courseCompleted) add('completed', 1);
  if (moves.reachedLessonId) add(`r#${moves.reachedLessonId}`, 1);
  if (moves.completedLessonId) add(`c#${moves.completedLessonId}`, 1);
  if (moves.quiz) {
    const { lessonId, passed, questions } = moves.quiz;
    add(`qa#${lessonId}`, 1);
    add(`qp#${lessonId}`, passed ? 1 : 0);
    for (const question of questions) {
      add(`qn#${lessonId}#${question.key}`, 1);
      add(`qk#${lessonId}#${question.key}`, question.correct ? 1 : 0);
    }
  }
  return deltas;
};

/** The transaction item that moves the course's figures (on the learner's shard); none when nothing moves. */
export const reportUpdate = (courseId: string, learnerId: string, moves: ReportMoves | undefined) =>
  moves ? shardUpdate(reportKeys.figures(courseId), figureDeltas(moves), { by: learnerId, type: 'CourseReportFigures' }) : [];

/**
 * The enrolment's marks `moves` sets, as parts of its Update: SET clauses, the conditions that they were not set before
 * (so a retried or raced write counts nothing twice), and their values. Names `#startedAt`/`#reached` are included.
 */
export const enrollmentMarks = (moves: ReportMoves | undefined) => {
  const sets: string[] = [];
  const conditions: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  if (moves?.startedAt) {
    sets.push('#startedAt = :startedAt');
    conditions.push('attribute_not_exists(#startedAt)');
    names['#startedAt'] = 'startedAt';
    values[':startedAt'] = moves.startedAt;
  }
  if (moves?.reachedLessonId) {
    sets.push('#reached = list_append(if_not_exists(#reached, :noLessons), :reachedList)');
    conditions.push('NOT contains(#reached, :reachedLesson)');
    names['#reached'] = 'reachedLessonIds';
    values[':noLessons'] = [];
    values[':reachedList'] = [moves.reachedLessonId];
    values[':reachedLesson'] = moves.reachedLessonId;
  }
  return { sets, conditions, names, values };
};

/** Summed shard attributes back into figures. */
export const figuresOf = (sums: Record<string, number>): CourseFigures => {
  const figures: CourseFigures = { started: sums['started'] ?? 0, completed: sums['completed'] ?? 0, lessons: {}, quizzes: {} };
  const lesson = (id: string) => (figures.lessons[id] ??= { reached: 0, completed: 0 });
  const quiz = (id: string) => (figures.quizzes[id] ??= { attempts: 0, passes: 0, questions: {} });
  for (const [name, value] of Object.entries(sums)) {
    const [kind, lessonId, key] = name.split('#');
    if (!lessonId) continue;
    if (kind === 'r') lesson(lessonId).reached += value;
    else if (kind === 'c') lesson(lessonId).completed += value;
    else if (kind === 'qa') quiz(lessonId).attempts += value;
    else if (kind === 'qp') quiz(lessonId).passes += value;
    else if ((kind === 'qn' || kind === 'qk') && key) {
      const question = (quiz(lessonId).questions[key] ??= { answers: 0, correct: 0 });
      if (kind === 'qn') question.answers += value;
      else question.correct += value;
    }
  }
  return figures;
};

export const dynamoCourseReports = (): CourseReportRepository => ({
  figures: async (courseId) => figuresOf(await readCounter(reportKeys.figures(courseId))),
});
