import { useInfiniteQuery } from '@tanstack/react-query';
import { MessageSquareReply } from 'lucide-react';
import { useId } from 'react';
import { Link } from 'react-router-dom';
import type { UnansweredQuestion } from '@contracts/comments.ts';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { LoadFailedInline } from '@/components/ui/load-failed.tsx';
import { LoadMore } from '@/components/ui/load-more.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { courseDiscussionPath } from '@/lib/paths.ts';
import { creatorQuestionsQueryOptions } from '../api/creator-questions.ts';
import { askedAgo, questionExcerpt } from '../question-format.ts';

/**
 * The dashboard's "Unanswered questions" (issue 35 point 1): the learners' threads the creator has not replied in,
 * longest waiting first, each with who asked, where, the start of what they wrote and how long ago, and 'Answer' to
 * the course editor opened at that lesson's discussion. A question leaves the list once the creator replies there.
 */
export function UnansweredQuestionsCard() {
  const questions = useInfiniteQuery(creatorQuestionsQueryOptions());
  const items = questions.data?.pages.flatMap((page) => page.items) ?? [];
  const titleId = useId();
  return (
    <Card role="region" aria-labelledby={titleId}>
      <CardHeader>
        <CardTitle id={titleId}>Unanswered questions</CardTitle>
        <CardDescription>Your learners’ threads you have not replied to yet, longest waiting first.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {questions.isPending ? (
          <div aria-busy="true" className="grid gap-3">
            <p className="sr-only">Loading your learners’ questions...</p>
            <Skeleton className="h-16" />
            <Skeleton className="h-16" />
          </div>
        ) : questions.isError ? (
          <LoadFailedInline message="Your learners’ questions could not be loaded." onRetry={() => void questions.refetch()} retrying={questions.isFetching} />
        ) : items.length === 0 ? (
          <p className="text-sm text-muted-foreground">No unanswered questions. Nice work.</p>
        ) : (
          <ul className="divide-y" aria-label="Questions">
            {items.map((question) => (
              <li key={question.id} className="py-3 first:pt-0 last:pb-0">
                <Question question={question} />
              </li>
            ))}
          </ul>
        )}
        <LoadMore pages={questions} label="Load more questions" />
      </CardContent>
    </Card>
  );
}

function Question({ question }: { question: UnansweredQuestion }) {
  const replies = question.replyCount === 0 ? 'No replies yet' : question.replyCount === 1 ? '1 reply' : `${question.replyCount} replies`;
  return (
    <article className="grid gap-1.5 sm:grid-cols-[1fr_auto] sm:items-start sm:gap-x-4">
      <div className="grid min-w-0 gap-1">
        <p className="text-sm break-words">
          <span className="font-medium">{question.author.displayName}</span>
          <span className="text-muted-foreground">
            {' '}in {question.courseTitle} · {question.lessonTitle}
          </span>
        </p>
        <p className="text-sm break-words text-muted-foreground">{questionExcerpt(question.body)}</p>
        <p className="text-xs text-muted-foreground">
          Asked{' '}
          <time dateTime={question.createdAt}>
            {askedAgo(question.createdAt)}
          </time>{' '}
          · {replies}
        </p>
      </div>
      <Button asChild variant="outline" size="sm" className="w-fit">
        {/* Named for whom and where: a screen reader's list of links otherwise reads 'Answer' ten times. */}
        <Link to={courseDiscussionPath(question.courseId, question.lessonId)} aria-label={`Answer ${question.author.displayName} in ${question.lessonTitle}`}>
          <MessageSquareReply aria-hidden="true" />
          Answer
        </Link>
      </Button>
    </article>
  );
}
