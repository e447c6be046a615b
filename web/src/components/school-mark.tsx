import { useState, type CSSProperties } from 'react';
import { cn } from '@/lib/utils.ts';

/** Up to two initials of a school's name, for a school without a logo: 'Clay & Kiln' -> 'CK'. */
const initials = (name: string): string =>
  name
    .split(/\s+/)
    .map((w) => w.replace(/[^\p{L}\p{N}]/gu, ''))
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => w[0]!.toUpperCase())
    .join('');

/**
 * A school's mark: its logo, or its initials on its primary colour (or while the logo fails to load), then its name.
 * The branded storefront's header and the Branding page's preview show the same. The logo is decorative: the name is
 * the text.
 */
export function SchoolMark({ name, logoUrl, primaryColor, onPrimaryColor, className }: { name: string; logoUrl: string | null; primaryColor: string; onPrimaryColor: string; className?: string }) {
  const [failed, setFailed] = useState<string | null>(null);
  const showLogo = logoUrl !== null && failed !== logoUrl;
  return (
    <span className={cn('flex min-w-0 items-center gap-2 text-base font-semibold tracking-tight', className)}>
      {showLogo ? (
        <img src={logoUrl} alt="" className="h-8 max-w-28 shrink-0 object-contain" onError={() => setFailed(logoUrl)} data-testid="school-logo" />
      ) : (
        <span aria-hidden="true" className="grid size-8 shrink-0 place-items-center rounded-lg text-sm" style={{ backgroundColor: primaryColor, color: onPrimaryColor }}>
          {initials(name) || '·'}
        </span>
      )}
      <span className="truncate">{name}</span>
    </span>
  );
}

/** A school's colours in place of the platform's for everything inside (the branded storefront and player). */
export const schoolColours = (branding: { primaryColor: string; onPrimaryColor: string } | null | undefined): CSSProperties | undefined =>
  branding ? ({ '--color-primary': branding.primaryColor, '--color-primary-foreground': branding.onPrimaryColor, '--color-ring': branding.primaryColor } as CSSProperties) : undefined;
