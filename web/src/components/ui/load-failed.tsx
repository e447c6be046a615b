import { RotateCw } from 'lucide-react';
import { Button } from './button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from './card.tsx';

interface Retry {
  onRetry: () => void;
  retrying?: boolean;
}

function RetryButton({ onRetry, retrying = false, label = 'Try again', size }: Retry & { label?: string; size?: 'sm' }) {
  return (
    <Button variant="outline" size={size} loading={retrying} onClick={onRetry}>
      {!retrying && <RotateCw aria-hidden="true" />}
      {label}
    </Button>
  );
}

/** A part of a screen that could not be loaded: says which, and offers to load it again. */
export function LoadFailed({ message, onRetry, retrying = false, retryLabel = 'Try again' }: { message: string; onRetry: () => void; retrying?: boolean; retryLabel?: string }) {
  return (
    <div role="alert" className="flex flex-col items-center gap-3 rounded-xl border px-4 py-10 text-center">
      <p className="font-medium">{message}</p>
      <RetryButton onRetry={onRetry} retrying={retrying} label={retryLabel} />
    </div>
  );
}

/** The same in one line, inside a panel (e.g. the course editor's learners, licences, certificates). */
export function LoadFailedInline({ message, ...retry }: { message: string } & Retry) {
  return (
    <div role="alert" className="flex flex-wrap items-center justify-between gap-3 rounded-lg border p-4 text-sm">
      {message}
      <RetryButton {...retry} size="sm" />
    </div>
  );
}

/**
 * A screen's content that could not be loaded, as a card: what failed (`title`; `titleLevel` 1 where it is the
 * page's only heading), what to do, and the retry.
 */
export function LoadFailedCard({
  title,
  titleLevel,
  description = 'Check your connection and try again.',
  ...retry
}: { title: string; titleLevel?: 1 | 2 | 3; description?: string } & Retry) {
  return (
    <Card role="alert">
      <CardHeader>
        <CardTitle asLevel={titleLevel}>{title}</CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent>
        <RetryButton {...retry} />
      </CardContent>
    </Card>
  );
}
