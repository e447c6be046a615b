import { Bold, Heading2, Italic, Link2, List, ListChecks, ListOrdered } from 'lucide-react';
import { useRef, useState, type FormEvent } from 'react';
import { ASSIGNMENT_INSTRUCTIONS_MAX, LESSON_TITLE_MAX, parseVideoUrl, RELEASE_DAYS_MAX, type CreateLessonBody, type Lesson, type LessonKind, type LessonRelease } from '@contracts/courses.ts';
import { formatBytes } from '@/lib/multipart-upload.ts';
import { ACCEPT, checkFile } from '../api/course-files.ts';
import { Button } from '@/components/ui/button.tsx';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog.tsx';
import { FormField } from '@/components/ui/form-field.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Textarea } from '@/components/ui/textarea.tsx';
import { htmlToMarkdown, markdownToHtml } from '../lesson-markdown.ts';
import { checkQuizDraft, draftFromQuiz, isBlankQuestion, type QuizDraft } from '../quiz-draft.ts';
import { checkReleaseDraft, draftFromRelease, type ReleaseDraft } from '../release-draft.ts';
import { AiLessonDraft, AiQuizDraft, DraftMark } from './ai-lesson-tools.tsx';
import { lessonProse } from './lesson-prose.ts';
import { QuizEditor } from './quiz-editor.tsx';
import { VideoEmbed } from './video-embed.tsx';

const VIDEO_HINT = 'Use a YouTube or Vimeo link, or an https link to an .mp4 or .webm file.';

/** The toolbar's edits of the Markdown text: wrap the selection, or start each selected line. */
const tools = [
  { label: 'Heading', icon: Heading2, wrap: ['## ', ''], line: true },
  { label: 'Bold', icon: Bold, wrap: ['**', '**'], line: false },
  { label: 'Italic', icon: Italic, wrap: ['*', '*'], line: false },
  { label: 'Bulleted list', icon: List, wrap: ['- ', ''], line: true },
  { label: 'Numbered list', icon: ListOrdered, wrap: ['1. ', ''], line: true },
  { label: 'Link', icon: Link2, wrap: ['[', '](https://)'], line: false },
] as const;

/**
 * Adding or editing a lesson: its title, and either a text (a small Markdown editor with a toolbar and a live
 * preview of the HTML it becomes), a video: a link (with a live embed preview) or a file to upload (.mp4/.webm up
 * to 2 GB, checked here; the upload runs after the save, with its progress in the lesson's row), or a quiz (its
 * questions and right answers, checked with the contract's `quizDefinition`), or an assignment (issue 35: its
 * instructions in the same Markdown editor as a text, kept as Markdown since the server renders them, and whether
 * learners may hand in files); and when it opens to learners (drip release, issue 33: at once, on a date, or some days
 * after each learner's enrolment). Full screen on a phone.
 * With `ai` (issue 36): "Draft with AI" fills a text lesson's editor, "Generate quiz" a quiz's, each marked a draft
 * until Save: AI output reaches learners only through the lesson's own save.
 */
export interface LessonAi {
  courseId: string;
  /** The course's saved text lessons with text: what a quiz can be generated from. */
  textLessons: Lesson[];
  /** "Generate quiz" in a saved text lesson: the panel opens a new quiz lesson drafted from it. */
  onQuizFrom: (lesson: Lesson) => void;
}

export function LessonDialog({
  open,
  onOpenChange,
  lesson,
  saving,
  onSave,
  ai,
  quizFrom,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The lesson being edited; none to add one. */
  lesson?: Lesson | undefined;
  saving: boolean;
  ai?: LessonAi | undefined;
  /** A new lesson that starts as a quiz to generate from this text lesson. */
  quizFrom?: Lesson | undefined;
  /** `video`: a file to upload once the lesson is saved. */
  onSave: (body: CreateLessonBody, video?: File) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={(next) => !saving && onOpenChange(next)}>
      <DialogContent fullScreenOnPhone className="sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>{lesson ? 'Edit lesson' : 'Add lesson'}</DialogTitle>
          <DialogDescription>A text lesson, a video, a quiz or an assignment. Learners see lessons in the course&apos;s order.</DialogDescription>
        </DialogHeader>
        {open && (
          <LessonForm
            key={lesson?.id ?? `new-${quizFrom?.id ?? ''}`}
            lesson={lesson}
            saving={saving}
            onSave={onSave}
            onCancel={() => onOpenChange(false)}
            ai={ai}
            quizFrom={quizFrom}
          />
        )}
      </DialogContent>
    </Dialog>
  );
}

type VideoSource = 'link' | 'upload';

const kindLabels: Record<LessonKind, string> = { text: 'Text', video: 'Video', quiz: 'Quiz', assignment: 'Assignment' };

function LessonForm({
  lesson,
  saving,
  onSave,
  onCancel,
  ai,
  quizFrom,
}: {
  lesson?: Lesson | undefined;
  saving: boolean;
  onSave: (body: CreateLessonBody, video?: File) => void;
  onCancel: () => void;
  ai?: LessonAi | undefined;
  quizFrom?: Lesson | undefined;
}) {
  const [title, setTitle] = useState(lesson?.title ?? (quizFrom ? `Quiz: ${quizFrom.title}`.slice(0, LESSON_TITLE_MAX) : ''));
  const [kind, setKind] = useState<LessonKind>(lesson?.kind ?? (quizFrom ? 'quiz' : 'text'));
  const [savedText] = useState(() => (lesson?.body ? htmlToMarkdown(lesson.body) : ''));
  const [text, setText] = useState(savedText);
  /** Which editor holds unsaved AI output: its mark stays until Save (or Cancel drops it). */
  const [drafted, setDrafted] = useState<{ text?: boolean; quiz?: boolean }>({});
  const [video, setVideo] = useState(lesson?.videoUrl ?? '');
  const uploaded = lesson?.files.find((f) => f.kind === 'video');
  const [source, setSource] = useState<VideoSource>(uploaded && !lesson?.videoUrl ? 'upload' : 'link');
  const [videoFile, setVideoFile] = useState<File | undefined>();
  const [instructions, setInstructions] = useState(lesson?.assignment?.instructions ?? '');
  const [acceptsFiles, setAcceptsFiles] = useState(lesson?.assignment?.acceptsFiles ?? false);
  const [errors, setErrors] = useState<{ title?: string; text?: string; instructions?: string; video?: string; file?: string; release?: string }>({});
  const [release, setRelease] = useState<ReleaseDraft>(() => draftFromRelease(lesson?.release));
  const [quiz, setQuiz] = useState<QuizDraft>(() => draftFromQuiz(lesson?.quiz));
  // Once a save was tried, the quiz is checked again on every change: its messages follow the questions as they move.
  const [quizChecked, setQuizChecked] = useState(false);
  const quizResult = kind === 'quiz' ? checkQuizDraft(quiz) : undefined;
  const quizErrors = quizChecked && quizResult && 'errors' in quizResult ? quizResult.errors : {};
  const html = markdownToHtml(text);
  const videoOk = parseVideoUrl(video.trim()) !== undefined;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const found: typeof errors = {};
    if (!title.trim()) found.title = 'Give the lesson a title.';
    if (kind === 'text' && !text.trim()) found.text = 'Write the lesson.';
    if (kind === 'assignment' && !instructions.trim()) found.instructions = 'Write the instructions.';
    if (kind === 'video' && source === 'link' && !videoOk) found.video = VIDEO_HINT;
    if (kind === 'video' && source === 'upload') {
      if (videoFile) {
        const checked = checkFile('video', videoFile);
        if ('error' in checked) found.file = checked.error;
      } else if (!uploaded) found.file = 'Choose an .mp4 or .webm video to upload.';
    }
    const released = checkReleaseDraft(release);
    if ('error' in released) found.release = released.error;
    setErrors(found);
    if (kind === 'quiz') setQuizChecked(true);
    const quizFailed = quizResult !== undefined && 'errors' in quizResult;
    if (Object.keys(found).length || quizFailed) {
      // A long quiz's message may be far down: take the keyboard to the first field that needs fixing.
      requestAnimationFrame(() => form.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
      return;
    }
    const opens = { release: (released as { release: LessonRelease }).release };
    if (quizResult) onSave({ title: title.trim(), kind: 'quiz', quiz: quizResult.quiz, ...opens });
    else if (kind === 'assignment') onSave({ title: title.trim(), kind, assignment: { instructions: instructions.trim(), acceptsFiles }, ...opens });
    else if (kind === 'text') onSave({ title: title.trim(), kind, body: html, ...opens });
    else if (source === 'link') onSave({ title: title.trim(), kind, videoUrl: video.trim(), ...opens });
    else onSave({ title: title.trim(), kind, ...opens }, videoFile);
  };

  return (
    <form noValidate aria-label={lesson ? 'Edit lesson' : 'Add lesson'} className="grid gap-4" onSubmit={submit}>
      <FormField label="Lesson title" error={errors.title} required>
        <Input value={title} maxLength={LESSON_TITLE_MAX} required onChange={(e) => setTitle(e.target.value)} />
      </FormField>

      <fieldset className="grid gap-2">
        <legend className="mb-2 text-sm font-medium">Kind</legend>
        <div className="flex flex-wrap gap-x-4 gap-y-2">
          {(['text', 'video', 'quiz', 'assignment'] as const).map((value) => (
            <label key={value} className="flex items-center gap-2 text-sm">
              <input type="radio" name="kind" value={value} checked={kind === value} onChange={() => setKind(value)} className="size-4 accent-primary" />
              {kindLabels[value]}
            </label>
          ))}
        </div>
      </fieldset>

      {kind === 'quiz' ? (
        <div className="grid gap-3">
          {ai && (
            <AiQuizDraft
              courseId={ai.courseId}
              textLessons={ai.textLessons}
              sourceId={quizFrom?.id}
              replacesQuestions={!quiz.questions.every(isBlankQuestion)}
              onDrafted={(drafts) => {
                setQuiz(draftFromQuiz(drafts));
                setDrafted((was) => ({ ...was, quiz: true }));
              }}
            />
          )}
          {drafted.quiz && <DraftMark />}
          <QuizEditor value={quiz} onChange={setQuiz} errors={quizErrors} />
        </div>
      ) : kind === 'text' ? (
        <div className="grid gap-3">
          {ai && (
            <div className="flex flex-wrap items-start gap-2">
              <AiLessonDraft
                courseId={ai.courseId}
                title={title}
                replacesText={text.trim() !== ''}
                onDrafted={(markdown) => {
                  setText(markdown);
                  setDrafted((was) => ({ ...was, text: true }));
                }}
              />
              {lesson?.kind === 'text' && lesson.body && (
                <Button
                  type="button"
                  variant="outline"
                  size="sm"
                  className="w-fit"
                  disabled={text !== savedText}
                  onClick={() => ai.onQuizFrom(lesson)}
                >
                  <ListChecks aria-hidden="true" />
                  Generate quiz
                </Button>
              )}
            </div>
          )}
          {ai && lesson?.kind === 'text' && lesson.body && text !== savedText && (
            <p className="text-xs text-muted-foreground">Save the lesson to generate a quiz from it: the quiz is written from its saved text.</p>
          )}
          {drafted.text && <DraftMark />}
          <MarkdownEditor
            label="Lesson text"
            previewLabel="Text preview"
            value={text}
            error={errors.text}
            onChange={setText}
          />
        </div>
      ) : kind === 'assignment' ? (
        <div className="grid gap-3">
          <MarkdownEditor
            label="Instructions"
            previewLabel="Instructions preview"
            value={instructions}
            maxLength={ASSIGNMENT_INSTRUCTIONS_MAX}
            error={errors.instructions}
            onChange={setInstructions}
          />
          <label className="flex items-start gap-2 text-sm">
            <input type="checkbox" checked={acceptsFiles} onChange={(e) => setAcceptsFiles(e.target.checked)} className="mt-0.5 size-4 accent-primary" />
            <span>
              <span className="font-medium">Accept files</span>
              <span className="block text-muted-foreground">Learners may hand in files as well as their written answer.</span>
            </span>
          </label>
        </div>
      ) : (
        <div className="grid gap-3">
          <fieldset className="grid gap-2">
            <legend className="mb-2 text-sm font-medium">Video source</legend>
            <div className="flex flex-wrap gap-4">
              {(['link', 'upload'] as const).map((value) => (
                <label key={value} className="flex items-center gap-2 text-sm">
                  <input type="radio" name="video-source" value={value} checked={source === value} onChange={() => setSource(value)} className="size-4 accent-primary" />
                  {value === 'link' ? 'Link' : 'Upload a video'}
                </label>
              ))}
            </div>
          </fieldset>
          {source === 'link' ? (
            <>
              <FormField label="Video URL" error={errors.video} description={VIDEO_HINT}>
                <Input type="url" inputMode="url" value={video} placeholder="https://www.youtube.com/watch?v=..." onChange={(e) => setVideo(e.target.value)} />
              </FormField>
              {videoOk ? (
                <section aria-label="Video preview">
                  <VideoEmbed url={video.trim()} title={`Preview: ${title || 'video lesson'}`} />
                </section>
              ) : (
                video.trim() !== '' && <p className="text-sm text-muted-foreground">The preview appears once the link is one of those.</p>
              )}
            </>
          ) : (
            <>
              <FormField
                label={uploaded ? 'Replace the video (optional)' : 'Video file'}
                error={errors.file}
                description={
                  uploaded
                    ? `Now: ${uploaded.name} (${formatBytes(uploaded.size)}). An .mp4 or .webm video up to 2 GB.`
                    : 'An .mp4 or .webm video up to 2 GB. It uploads once you save; its progress shows in the lesson list.'
                }
              >
                <Input
                  type="file"
                  accept={ACCEPT.video}
                  className="h-auto py-2"
                  onChange={(e) => {
                    const picked = e.target.files?.[0];
                    setVideoFile(picked);
                    const checked = picked ? checkFile('video', picked) : undefined;
                    setErrors((was) => ({ ...was, file: checked && 'error' in checked ? checked.error : undefined }));
                  }}
                />
              </FormField>
              {videoFile && !errors.file && (
                <p className="text-sm text-muted-foreground">
                  {videoFile.name} · {formatBytes(videoFile.size)}
                </p>
              )}
            </>
          )}
        </div>
      )}

      <ReleaseFields value={release} error={errors.release} onChange={setRelease} />

      <DialogFooter>
        <Button variant="outline" disabled={saving} onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" loading={saving}>
          {lesson ? 'Save lesson' : 'Add lesson'}
        </Button>
      </DialogFooter>
    </form>
  );
}

/**
 * A small Markdown editor: the toolbar's edits, the text, and a live preview of the HTML it becomes (our own converter,
 * which the server's sanitizer checks again). Text lessons and assignments' instructions are written in it.
 */
function MarkdownEditor({
  label,
  previewLabel,
  value,
  maxLength,
  error,
  onChange,
}: {
  label: string;
  previewLabel: string;
  value: string;
  maxLength?: number;
  error?: string | undefined;
  onChange: (next: string) => void;
}) {
  const textArea = useRef<HTMLTextAreaElement>(null);
  const html = markdownToHtml(value);

  const applyTool = (tool: (typeof tools)[number]) => {
    const area = textArea.current;
    if (!area) return;
    const { selectionStart: start, selectionEnd: end, value: typed } = area;
    const [before, after] = tool.wrap;
    let next: string;
    let caret: number;
    if (tool.line) {
      const lineStart = typed.lastIndexOf('\n', start - 1) + 1;
      const block = typed.slice(lineStart, end);
      const edited = block.split('\n').map((line) => `${before}${line}`).join('\n');
      next = typed.slice(0, lineStart) + edited + typed.slice(end);
      caret = lineStart + edited.length;
    } else {
      const selected = typed.slice(start, end) || (tool.label === 'Link' ? 'link text' : 'text');
      next = typed.slice(0, start) + before + selected + after + typed.slice(end);
      caret = start + before.length + selected.length;
    }
    onChange(next);
    requestAnimationFrame(() => {
      area.focus();
      area.setSelectionRange(caret, caret);
    });
  };

  return (
    <div className="grid gap-3">
      <div role="toolbar" aria-label="Formatting" className="flex flex-wrap gap-1">
        {tools.map((tool) => (
          <Button key={tool.label} type="button" variant="outline" size="icon" className="size-9" title={tool.label} aria-label={tool.label} onClick={() => applyTool(tool)}>
            <tool.icon aria-hidden="true" />
          </Button>
        ))}
      </div>
      <FormField
        label={label}
        error={error}
        description="## heading, **bold**, *italic*, - list, 1. numbered list, [text](https://link). A blank line starts a new paragraph."
      >
        <Textarea ref={textArea} rows={8} value={value} maxLength={maxLength} onChange={(e) => onChange(e.target.value)} className="font-mono" />
      </FormField>
      {html && (
        <section aria-label={previewLabel} className="grid gap-2">
          <h3 className="text-sm font-medium">Preview</h3>
          {/* Our own converter's output: every typed character is escaped, links are http(s) or mailto only. */}
          {/* Focusable: a long text (an AI draft) scrolls here, and the keyboard must reach it too. */}
          <div tabIndex={0} className={`${lessonProse} max-h-64 overflow-y-auto rounded-lg border bg-subtle p-4 text-sm`} dangerouslySetInnerHTML={{ __html: html }} />
        </section>
      )}
    </div>
  );
}

const releaseLabels: Record<LessonRelease['kind'], string> = {
  immediate: 'Immediately',
  date: 'On a date',
  afterEnrollment: 'Days after enrolment',
};

/**
 * When the lesson opens (drip release): a native select (the keyboard's and the phone's own picker) and, by kind, a
 * date and time in the creator's zone or a number of days. Learners see a locked lesson's title and opening date.
 */
function ReleaseFields({ value, error, onChange }: { value: ReleaseDraft; error?: string | undefined; onChange: (next: ReleaseDraft) => void }) {
  return (
    <fieldset className="grid gap-3 sm:grid-cols-2">
      <legend className="mb-2 text-sm font-medium">Release</legend>
      <FormField label="Opens" description="Learners see a locked lesson's title and when it opens, and get an email then.">
        <select
          value={value.kind}
          onChange={(e) => onChange({ ...value, kind: e.target.value as LessonRelease['kind'] })}
          className="flex h-10 w-full rounded-md border border-input bg-background px-3 py-2 text-base shadow-xs outline-none focus-visible:border-ring focus-visible:ring-2 focus-visible:ring-ring/50 sm:text-sm"
        >
          {(Object.keys(releaseLabels) as LessonRelease['kind'][]).map((kind) => (
            <option key={kind} value={kind}>
              {releaseLabels[kind]}
            </option>
          ))}
        </select>
      </FormField>
      {value.kind === 'date' && (
        <FormField label="Opens on" error={error} description="In your time zone.">
          <Input type="datetime-local" value={value.at} onChange={(e) => onChange({ ...value, at: e.target.value })} />
        </FormField>
      )}
      {value.kind === 'afterEnrollment' && (
        <FormField label="Days after enrolment" error={error} description={`1 to ${RELEASE_DAYS_MAX}: each learner from their own enrolment.`}>
          <Input type="number" inputMode="numeric" min={1} max={RELEASE_DAYS_MAX} step={1} value={value.days} onChange={(e) => onChange({ ...value, days: e.target.value })} />
        </FormField>
      )}
    </fieldset>
  );
}
