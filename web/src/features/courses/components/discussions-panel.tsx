import type { Course } from '@contracts/courses.ts';
import { useId, useState } from 'react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { Label } from '@/components/ui/label.tsx';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select.tsx';
import { LessonDiscussion } from '@/components/discussion/lesson-discussion.tsx';

/**
 * The creator's view of their learners' discussions (issue 35 point 1), in the course editor: one lesson's at a time,
 * chosen from the course's lessons, where they answer, pin, hide and delete.
 */
export function DiscussionsPanel({ course }: { course: Pick<Course, 'id' | 'lessons'> }) {
  const [lessonId, setLessonId] = useState(course.lessons[0]?.id ?? '');
  const pickerId = useId();
  const lesson = course.lessons.find((l) => l.id === lessonId) ?? course.lessons[0];
  if (!lesson) return null;
  return (
    <Card aria-labelledby="discussions-title" role="region">
      <CardHeader>
        <CardTitle id="discussions-title">Discussions</CardTitle>
        <CardDescription>What your learners ask and say under each lesson. Answer, pin the best threads, hide what does not belong.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-5">
        <div className="grid gap-2 sm:max-w-sm">
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
