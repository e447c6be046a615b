import { useInfiniteQuery } from '@tanstack/react-query';
import { COMMENT_BODY_MAX, type CommentReply, type CommentRole, type CommentThread } from '@contracts/comments.ts';
import { MessageSquare, Pin } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { ConfirmDialog } from '@/components/ui/confirm-dialog.tsx';
import { LoadFailed } from '@/components/ui/load-failed.tsx';
import { LoadMore } from '@/components/ui/load-more.tsx';
import { Spinner } from '@/components/ui/spinner.tsx';
import { Textarea } from '@/components/ui/textarea.tsx';
import { toast, toastError } from '@/components/ui/toaster.tsx';
import { errorMessage } from '@/lib/error-message.ts';
import { formatDay } from '@/lib/format-date.ts';
import { cn } from '@/lib/utils.ts';
import { discussionQueryOptions, useDiscussionAction, type DiscussionAction } from './discussion-queries.ts';

// A comment's HTML: paragraphs, lists, links, emphasis, code, quotes (the lesson body's tags, smaller).
const commentProse = cn(
  'text-sm leading-6 break-words [&_p]:my-1.5 [&_ul]:my-1.5 [&_ul]:list-disc [&_ul]:pl-5 [&_ol]:my-1.5 [&_ol]:list-decimal [&_ol]:pl-5',
  '[&_a]:underline [&_a]:underline-offset-4 [&_blockquote]:border-l-4 [&_blockquote]:pl-3 [&_blockquote]:italic',
  '[&_code]:rounded [&_code]:bg-muted [&_code]:px-1 [&_h2]:font-semibold [&_h3]:font-semibold [&>:first-child]:mt-0 [&>:last-child]:mb-0',
);

/**
 * The discussion under a lesson (issue 35 point 1), for its learners (the player) and its creator (the course
 * editor): threads with one level of replies, pinned first then newest activity, 'Load more' for older ones. Authors
 * by name and role (the creator marked); the caller edits and deletes their own; the creator also hides, shows,
 * pins and deletes anyone's; a learner reports someone else's. A comment's HTML is the server's rendering, made with
 * the lesson body's sanitizer rules, so it is safe to show as HTML.
 */
export function LessonDiscussion({ courseId, lessonId, viewer }: { courseId: string; lessonId: string; viewer: CommentRole }) {
  const threads = useInfiniteQuery(discussionQueryOptions(courseId, lessonId));
  const items = threads.data?.pages.flatMap((p) => p.items) ?? [];
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="grid gap-4">
      <h2 id={headingId} className="flex items-center gap-2 text-lg font-semibold tracking-tight">
        <MessageSquare aria-hidden="true" className="size-5" /> Discussion
      </h2>
      <CommentForm courseId={courseId} lessonId={lessonId} label={viewer === 'creator' ? 'Write to your learners' : 'Ask a question or share a thought'} submit="Post" />
      {threads.isPending ? (
        <p role="status" className="flex items-center gap-2 text-sm text-muted-foreground">
          <Spinner /> Loading the discussion...
        </p>
      ) : threads.isError ? (
        <LoadFailed message="The discussion could not be loaded." onRetry={() => void threads.refetch()} retrying={threads.isFetching} />
      ) : items.length === 0 ? (
        <p className="rounded-lg bg-muted p-4 text-center text-sm text-muted-foreground">No comments yet. Start the discussion.</p>
      ) : (
        <ol className="grid gap-4" aria-label="Comments">
          {items.map((thread) => (
            <li key={thread.id}>
              <Thread courseId={courseId} lessonId={lessonId} viewer={viewer} thread={thread} />
            </li>
          ))}
        </ol>
      )}
      <LoadMore pages={threads} label="Load more comments" />
    </section>
  );
}

/** A new thread, a reply (`parentId`) or an edit (`commentId`): the text, its limit, the server's refusal under it. */
function CommentForm({
  courseId,
  lessonId,
  label,
  submit,
  parentId,
  edit,
  onDone,
  onCancel,
}: {
  courseId: string;
  lessonId: string;
  label: string;
  submit: string;
  parentId?: string;
  edit?: { commentId: string; body: string };
  onDone?: () => void;
  onCancel?: () => void;
}) {
  const [body, setBody] = useState(edit?.body ?? '');
  const action = useDiscussionAction(courseId, lessonId);
  const id = useId();
  const errorId = `${id}-error`;
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!body.trim()) return;
    const next: DiscussionAction = edit ? { kind: 'edit', commentId: edit.commentId, body } : { kind: 'post', body, ...(parentId ? { parentId } : {}) };
    action.mutate(next, {
      onSuccess: () => {
        setBody('');
        onDone?.();
      },
    });
  };
  return (
    <form onSubmit={onSubmit} className="grid gap-2">
      <label htmlFor={id} className={parentId || edit ? 'sr-only' : 'text-sm font-medium'}>
        {label}
      </label>
      <Textarea
        id={id}
        value={body}
        maxLength={COMMENT_BODY_MAX}
        onChange={(e) => setBody(e.target.value)}
        placeholder={parentId ? 'Write a reply' : undefined}
        aria-invalid={action.isError || undefined}
        aria-describedby={action.isError ? errorId : undefined}
        rows={parentId || edit ? 2 : 3}
      />
      {action.isError && (
        <p id={errorId} role="alert" className="text-sm text-destructive">
          {errorMessage(action.error, 'The comment could not be saved. Try again.')}
        </p>
      )}
      <div className="flex flex-wrap items-center gap-2">
        <Button type="submit" size="sm" loading={action.isPending} disabled={!body.trim()}>
          {submit}
        </Button>
        {onCancel && (
          <Button type="button" size="sm" variant="ghost" onClick={onCancel}>
            Cancel
          </Button>
        )}
        <span className="ml-auto text-xs text-muted-foreground">Markdown: **bold**, *italic*, [links](https://…)</span>
      </div>
    </form>
  );
}

function Thread({ courseId, lessonId, viewer, thread }: { courseId: string; lessonId: string; viewer: CommentRole; thread: CommentThread }) {
  const [replying, setReplying] = useState(false);
  return (
    <article className={cn('grid gap-3 rounded-lg border p-4', thread.pinned && 'border-primary/50 bg-primary/5')} aria-label={`Comment by ${thread.author.displayName}`}>
      <Comment courseId={courseId} lessonId={lessonId} viewer={viewer} comment={thread} thread={thread} onReply={thread.deleted ? undefined : () => setReplying(true)} />
      {(thread.replies.length > 0 || replying) && (
        <ol className="grid gap-3 border-l-2 pl-4" aria-label="Replies">
          {thread.replies.map((reply) => (
            <li key={reply.id}>
              <Comment courseId={courseId} lessonId={lessonId} viewer={viewer} comment={reply} />
            </li>
          ))}
          {replying && (
            <li>
              <CommentForm
                courseId={courseId}
                lessonId={lessonId}
                label={`Reply to ${thread.author.displayName}`}
                submit="Reply"
                parentId={thread.id}
                onDone={() => setReplying(false)}
                onCancel={() => setReplying(false)}
              />
            </li>
          )}
        </ol>
      )}
    </article>
  );
}

/** One comment: its author, day, text (or why there is none), and the actions the caller may take on it. */
function Comment({
  courseId,
  lessonId,
  viewer,
  comment,
  thread,
  onReply,
}: {
  courseId: string;
  lessonId: string;
  viewer: CommentRole;
  comment: CommentReply;
  thread?: CommentThread;
  onReply?: (() => void) | undefined;
}) {
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const action = useDiscussionAction(courseId, lessonId);
  const deleted = thread?.deleted ?? false;
  const run = (next: DiscussionAction, done: string) =>
    action.mutate(next, {
      onSuccess: () => {
        setDeleting(false);
        toast.success(done);
      },
      onError: (error) => toastError(error, 'That did not work. Try again.'),
    });
  const creator = viewer === 'creator';
  return (
    <div className="grid gap-1.5">
      <div className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm">
        <span className="font-medium">{comment.author.displayName}</span>
        {comment.author.role === 'creator' && <Badge variant="secondary">Creator</Badge>}
        {/* Learners without a certificate name share the name 'Learner': the caller finds their own by this. */}
        {comment.mine && <Badge variant="outline">You</Badge>}
        <span className="text-muted-foreground">
          {formatDay(comment.createdAt)}
          {comment.editedAt && ' · edited'}
        </span>
        {thread?.pinned && (
          <Badge variant="outline">
            <Pin aria-hidden="true" /> Pinned
          </Badge>
        )}
        {comment.hidden && <Badge variant="outline">Hidden</Badge>}
        {creator && comment.reports > 0 && <Badge variant="outline">{comment.reports === 1 ? 'Reported once' : `Reported ${comment.reports} times`}</Badge>}
      </div>
      {editing ? (
        <CommentForm courseId={courseId} lessonId={lessonId} label="Edit your comment" submit="Save" edit={{ commentId: comment.id, body: comment.body }} onDone={() => setEditing(false)} onCancel={() => setEditing(false)} />
      ) : deleted ? (
        <p className="text-sm italic text-muted-foreground">This comment was deleted.</p>
      ) : comment.hidden && !creator ? (
        <p className="text-sm italic text-muted-foreground">This comment was hidden by the creator.</p>
      ) : (
        <div className={commentProse} dangerouslySetInnerHTML={{ __html: comment.html }} />
      )}
      {!editing && !deleted && (
        <div className="-ml-2 flex flex-wrap gap-1">
          {onReply && (
            <Button size="sm" variant="ghost" onClick={onReply}>
              Reply
            </Button>
          )}
          {comment.mine && (
            <Button size="sm" variant="ghost" onClick={() => setEditing(true)}>
              Edit
            </Button>
          )}
          {(comment.mine || creator) && (
            <Button size="sm" variant="ghost" onClick={() => setDeleting(true)}>
              Delete
            </Button>
          )}
          {creator && thread && (
            <Button size="sm" variant="ghost" disabled={action.isPending} onClick={() => run({ kind: 'pin', commentId: comment.id, pinned: !thread.pinned }, thread.pinned ? 'Unpinned.' : 'Pinned to the top.')}>
              {thread.pinned ? 'Unpin' : 'Pin'}
            </Button>
          )}
          {creator && (
            <Button size="sm" variant="ghost" disabled={action.isPending} onClick={() => run({ kind: 'hide', commentId: comment.id, hidden: !comment.hidden }, comment.hidden ? 'Shown to learners again.' : 'Hidden from learners.')}>
              {comment.hidden ? 'Show' : 'Hide'}
            </Button>
          )}
          {!creator && !comment.mine && (
            <Button size="sm" variant="ghost" disabled={action.isPending} onClick={() => run({ kind: 'report', commentId: comment.id }, 'Reported to the creator.')}>
              Report
            </Button>
          )}
        </div>
      )}
      <ConfirmDialog open={deleting} onOpenChange={setDeleting} title="Delete this comment?" action="Delete" busy={action.isPending} onConfirm={() => run({ kind: 'delete', commentId: comment.id }, 'Comment deleted.')}>
        {thread && thread.replies.length > 0 ? 'Its replies stay, under a note that it was deleted.' : 'It is removed from the discussion for everyone.'}
      </ConfirmDialog>
    </div>
  );
}
