import type { SupportRequest } from '@contracts/support.ts';
import { cn } from '@/lib/utils.ts';
import { formatMoment } from '../support-format.ts';

/**
 * A request's conversation: the creator's message, then each reply in order, each with who wrote it and when.
 * `names` words the two sides for the reader (the creator reads 'You' and 'Support'; the admin the creator's email).
 */
export function SupportThread({ request, names }: { request: SupportRequest; names: { creator: string; support: string } }) {
  const messages = [{ body: request.body, at: request.createdAt, from: 'you' as const }, ...request.replies];
  return (
    <ol className="grid gap-3" aria-label={`Conversation: ${request.subject}`}>
      {messages.map((message, index) => (
        <li
          key={index}
          className={cn('grid gap-1 rounded-lg border p-3 text-sm', message.from === 'support' ? 'border-primary/30 bg-primary/5 sm:ml-8' : 'bg-background sm:mr-8')}
        >
          <p className="flex flex-wrap items-baseline gap-x-2 text-xs text-muted-foreground">
            <span className="font-medium text-foreground">{message.from === 'support' ? names.support : names.creator}</span>
            <time dateTime={message.at}>{formatMoment(message.at)}</time>
          </p>
          <p className="whitespace-pre-wrap break-words">{message.body}</p>
        </li>
      ))}
    </ol>
  );
}
