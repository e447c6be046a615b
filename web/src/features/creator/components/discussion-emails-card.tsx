import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { Label } from '@/components/ui/label.tsx';
import { LoadFailedInline } from '@/components/ui/load-failed.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { Switch } from '@/components/ui/switch.tsx';
import { discussionEmailsQueryOptions, useSaveDiscussionEmails } from '../api/discussion-emails.ts';

/** What the card says where a test may look for it. */
export const discussionEmailsMessages = {
  title: 'Email notifications',
  description: 'What we email you about your courses’ discussions.',
  digest: 'Email me a daily digest of new comments',
  digestHint: 'One email a day listing your learners’ new comments, with links to answer them.',
  loading: 'Loading your email choices',
  loadFailed: 'Your email choices could not be loaded.',
  saveFailed: 'Your choice could not be saved.',
};

/**
 * The creator's choice of discussion emails on their profile (GET and PUT /api/creator/discussion-emails): the daily
 * digest on or off, saved as the switch moves. The digest's own unsubscribe link turns the same choice off.
 */
export function DiscussionEmailsCard() {
  const m = discussionEmailsMessages;
  const id = useId();
  const choice = useQuery(discussionEmailsQueryOptions());
  const save = useSaveDiscussionEmails(m.saveFailed);
  return (
    <Card>
      <CardHeader>
        <CardTitle>{m.title}</CardTitle>
        <CardDescription>{m.description}</CardDescription>
      </CardHeader>
      <CardContent>
        {choice.isError ? (
          <LoadFailedInline message={m.loadFailed} onRetry={() => void choice.refetch()} retrying={choice.isRefetching} />
        ) : (
          <div className="flex items-start justify-between gap-4">
            <div className="grid min-w-0 gap-1.5">
              <Label htmlFor={id}>{m.digest}</Label>
              <p id={`${id}-hint`} className="text-sm text-muted-foreground">
                {m.digestHint}
              </p>
            </div>
            {choice.isPending ? (
              <div role="status" className="shrink-0">
                <span className="sr-only">{m.loading}</span>
                <Skeleton className="h-6 w-11 rounded-full" />
              </div>
            ) : (
              <Switch
                id={id}
                aria-label={m.digest}
                checked={choice.data.commentDigest}
                onCheckedChange={(on) => save.mutate({ commentDigest: on })}
                aria-describedby={`${id}-hint`}
              />
            )}
          </div>
        )}
      </CardContent>
    </Card>
  );
}
