import { useState, type FormEvent, type ReactNode } from 'react';
import { COURSE_DESCRIPTION_MAX, COURSE_TITLE_MAX, createCourseBody, type CreateCourseBody } from '@contracts/courses.ts';
import { FormField } from '@/components/ui/form-field.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Textarea } from '@/components/ui/textarea.tsx';

/** A course's title (required) and description, checked with the contract's rules before anything is sent. */
export function CourseDetailsForm({
  label,
  initial,
  onSubmit,
  actions,
}: {
  label: string;
  initial?: { title: string; description: string };
  onSubmit: (body: CreateCourseBody & { description: string }) => void;
  actions: ReactNode;
}) {
  const [title, setTitle] = useState(initial?.title ?? '');
  const [description, setDescription] = useState(initial?.description ?? '');
  const [error, setError] = useState<string | undefined>();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = createCourseBody.safeParse({ title, description });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    setError(undefined);
    onSubmit({ title: parsed.data.title, description: parsed.data.description ?? '' });
  };

  return (
    <form noValidate aria-label={label} className="grid gap-4" onSubmit={submit}>
      <FormField label="Course title" error={error} required>
        <Input value={title} maxLength={COURSE_TITLE_MAX} required onChange={(e) => setTitle(e.target.value)} placeholder="Watercolour for Beginners" />
      </FormField>
      <FormField label="Description" description="What learners will get from the course.">
        <Textarea rows={4} value={description} maxLength={COURSE_DESCRIPTION_MAX} onChange={(e) => setDescription(e.target.value)} />
      </FormField>
      <div className="flex flex-col gap-2 sm:flex-row">{actions}</div>
    </form>
  );
}
