import { Sparkles } from 'lucide-react';
import { useId, useState } from 'react';
import { OUTLINE_LESSONS_MAX, OUTLINE_LESSONS_MIN, type CourseOutlineDraft } from '@contracts/ai.ts';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { Textarea } from '@/components/ui/textarea.tsx';
import { useCreateCourseFromOutline, useDraftOutline, useAiPrice } from '../api/use-ai-drafts.ts';
import { AiFailure } from './ai-lesson-tools.tsx';

/**
 * The new-course flow's AI outline (issue 36): the cost is on the button before anything runs; the outline is only a
 * draft on screen until "Create course from outline" makes a draft course with those lessons as empty text lessons.
 */
export function AiOutlineCard({ onCreated }: { onCreated: (courseId: string) => void }) {
  const [topic, setTopic] = useState('');
  const [audience, setAudience] = useState('');
  const [lessons, setLessons] = useState(5);
  const [outline, setOutline] = useState<CourseOutlineDraft>();
  const draft = useDraftOutline();
  const create = useCreateCourseFromOutline();
  // The price as the server charges it (GET /api/ai/prices): the button that runs the tool waits for it.
  const price = useAiPrice('courseOutline');
  const ids = { topic: useId(), audience: useId(), lessons: useId() };
  const error = draft.error ?? create.error;

  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Sparkles aria-hidden="true" className="size-4" />
          Draft an outline with AI
        </CardTitle>
        <CardDescription>
          Costs {price ?? '…'} credits. You get a title, a description and a list of lessons to check before anything is created.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <form
          className="grid gap-4"
          onSubmit={(event) => {
            event.preventDefault();
            if (!topic.trim()) return;
            draft.mutate({ topic: topic.trim(), ...(audience.trim() ? { audience: audience.trim() } : {}), lessons }, { onSuccess: (answer) => setOutline(answer.outline) });
          }}
        >
          <div className="grid gap-1.5">
            <Label htmlFor={ids.topic}>What is the course about?</Label>
            <Textarea id={ids.topic} value={topic} maxLength={500} required onChange={(e) => setTopic(e.target.value)} />
          </div>
          <div className="grid gap-4 sm:grid-cols-[1fr_8rem]">
            <div className="grid gap-1.5">
              <Label htmlFor={ids.audience}>Who is it for? (optional)</Label>
              <Input id={ids.audience} value={audience} maxLength={300} onChange={(e) => setAudience(e.target.value)} />
            </div>
            <div className="grid gap-1.5">
              <Label htmlFor={ids.lessons}>Lessons</Label>
              <Input
                id={ids.lessons}
                type="number"
                min={OUTLINE_LESSONS_MIN}
                max={OUTLINE_LESSONS_MAX}
                value={lessons}
                onChange={(e) => setLessons(Math.min(OUTLINE_LESSONS_MAX, Math.max(OUTLINE_LESSONS_MIN, Number(e.target.value) || OUTLINE_LESSONS_MIN)))}
              />
            </div>
          </div>
          <Button type="submit" variant="outline" className="w-fit" loading={draft.isPending} disabled={price === undefined}>
            {draft.isPending ? 'Drafting...' : `Draft an outline with AI (${price ?? '…'} credits)`}
          </Button>
        </form>
        {error && <AiFailure error={error} price={price} />}
        {outline && (
          <section aria-label="Drafted outline" className="grid gap-3 rounded-lg border p-4">
            <p className="text-xs font-medium uppercase tracking-wide text-muted-foreground">Draft — not saved</p>
            <h3 className="text-lg font-semibold">{outline.title}</h3>
            <p className="text-sm text-muted-foreground">{outline.description}</p>
            <ol className="grid list-decimal gap-2 pl-5 text-sm">
              {outline.lessons.map((item, index) => (
                <li key={index}>
                  <span className="font-medium">{item.title}</span>
                  <span className="block text-muted-foreground">{item.summary}</span>
                </li>
              ))}
            </ol>
            <Button className="w-fit" loading={create.isPending} onClick={() => create.mutate(outline, { onSuccess: (created) => onCreated(created.id) })}>
              Create course from outline
            </Button>
          </section>
        )}
      </CardContent>
    </Card>
  );
}
