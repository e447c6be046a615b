import { UserRound } from 'lucide-react';
import { useState } from 'react';
import { cn } from '@/lib/utils.ts';

/** Up to two initials of a name: 'Jane Cooks' -> 'JC', 'madonna' -> 'M', '' -> ''. */
export const initialsOf = (name: string): string =>
  name
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((word) => word[0]!.toUpperCase())
    .join('');

/**
 * A creator's picture, or their initials on a tint while they have none (or the signed URL failed to load).
 * Decorative: the name is always written next to it.
 */
export function CreatorAvatar({ name, url, className }: { name: string; url: string | null; className?: string }) {
  const [failed, setFailed] = useState<string | null>(null);
  const showImage = url !== null && failed !== url;
  return (
    <span aria-hidden="true" className={cn('grid size-10 shrink-0 place-items-center overflow-hidden rounded-full bg-secondary font-semibold text-secondary-foreground ring-1 ring-border', className)}>
      {showImage ? (
        <img src={url} alt="" className="size-full object-cover" onError={() => setFailed(url)} data-testid="creator-avatar-image" />
      ) : initialsOf(name) ? (
        <span data-testid="creator-avatar-initials">{initialsOf(name)}</span>
      ) : (
        <UserRound className="size-1/2 text-muted-foreground" />
      )}
    </span>
  );
}
