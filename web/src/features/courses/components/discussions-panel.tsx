import type { Course } from '@contracts/courses.ts';
import { useEffect, useId, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { Label } from '@/components/ui/label.tsx';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select.tsx';
import { LessonDiscussion } from '@/components/discussion/lesson-discussion.tsx';
import { DISCUSSION_PARAM } from '@/lib/paths.ts';

/**
 * The creator's view of their learners' discussions (issue 35 point 1), in the course editor: one lesson's at a time,
 * chosen from the course's lessons, where they answer, pin, hide and delete. `?discussion=<lessonId>` (the dashboard's
 * unanswered questions' 'Answer') opens it on that lesson, scrolled into view and focused so the page starts there.
 */
export function DiscussionsPanel({ course }: { course: Pick<Course, 'id' | 'lessons'> }) {
  const [searchParams] = useSearchParams();
  const asked = searchParams.get(DISCUSSION_PARAM);
  // A lesson the course no longer has (deleted since the link was made) opens on the first.
  const [lessonId, setLessonId] = useState(asked ?? course.lessons[0]?.id ?? '');
  const pickerId = useId();
  const card = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!asked) return;
    card.current?.scrollIntoView?.({ block: 'start' });
    card.current?.focus({ preventScroll: true });
  }, [asked]);
  const lesson = course.lessons.find((l) => l.id === lessonId) ?? course.lessons[0];
  if (!lesson) return null;
  return (
    <Card ref={card} tabIndex={-1} aria-labelledby="discussions-title" role="region" className="scroll-mt-20 outline-none">
      <CardHeader>
        <CardTitle id="discussions-title">Discussions</CardTitle>
        <CardDescription>What your learners ask and say under each lesson. Answer, pin the best threads, hide what does not belong.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-5">
        <div className="grid min-w-0 gap-2 sm:max-w-sm">
          <Label htmlFor={pickerId}>Lesson</Label>
          <Select value={lesson.id} onValueChange={setLessonId}>
            <SelectTrigger id={pickerId}>
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              {course.lessons.map((l, i) => (
                <SelectItem key={l.id} value={l.id}>
                  {i + 1}. {l.title}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
        <LessonDiscussion key={lesson.id} courseId={course.id} lessonId={lesson.id} viewer="creator" />
      </CardContent>
    </Card>
  );
}
