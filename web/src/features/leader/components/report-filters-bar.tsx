import { Search } from 'lucide-react';
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import type { License } from '@contracts/licenses.ts';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select.tsx';
import { cn } from '@/lib/utils.ts';
import { licenseName } from '../license-format.ts';
import { leaderMessages } from '../leader-messages.ts';
import type { ReportFilters } from '../report-filters.ts';

const m = leaderMessages.reports;

/** How long typing must pause before the search is applied: one request per word, not per key. */
export const SEARCH_DELAY_MS = 300;

/** A Radix Select item cannot have an empty value: 'All' is this one, and means no filter. */
const ALL = 'all';

export type FilterChanges = Partial<Record<keyof ReportFilters, string | undefined>>;

/**
 * The report's filters: the licence (its course), the seat's status, the member's progress and part of an email.
 * A choice applies at once; the search once typing pauses (and replaces the address's entry rather than adding one
 * per pause, so Back skips the keystrokes).
 */
export function ReportFiltersBar({
  licenses,
  filters,
  onChange,
}: {
  licenses: License[];
  filters: ReportFilters;
  onChange: (changes: FilterChanges, options?: { replace: boolean }) => void;
}) {
  return (
    // On a phone the two short selects share a row; from 1024 px all four do.
    <div role="search" aria-label={m.filters} className="grid grid-cols-2 gap-4 lg:grid-cols-[minmax(0,2fr)_repeat(2,minmax(0,1fr))_minmax(0,2fr)]">
      <FilterSelect className="col-span-2 lg:col-span-1" label={m.license} value={filters.licenseId} onChange={(licenseId) => onChange({ licenseId })}>
        <SelectItem value={ALL}>{m.allLicenses}</SelectItem>
        {licenses.map((license) => (
          <SelectItem key={license.id} value={license.id}>
            {licenseName(license, licenses)}
          </SelectItem>
        ))}
      </FilterSelect>
      <FilterSelect label={m.status} value={filters.status} onChange={(status) => onChange({ status })}>
        <SelectItem value={ALL}>{m.all}</SelectItem>
        <SelectItem value="active">Active</SelectItem>
        <SelectItem value="revoked">Removed</SelectItem>
      </FilterSelect>
      <FilterSelect label={m.progress} value={filters.progress} onChange={(progress) => onChange({ progress })}>
        <SelectItem value={ALL}>{m.all}</SelectItem>
        <SelectItem value="not-started">Not started</SelectItem>
        <SelectItem value="in-progress">In progress</SelectItem>
        <SelectItem value="completed">Completed</SelectItem>
      </FilterSelect>
      <EmailSearch className="col-span-2 lg:col-span-1" value={filters.q ?? ''} onSearch={(q) => onChange({ q }, { replace: true })} />
    </div>
  );
}

function FilterSelect({
  label,
  value,
  onChange,
  className,
  children,
}: {
  label: string;
  value: string | undefined;
  onChange: (value: string | undefined) => void;
  className?: string;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <div className={cn('grid min-w-0 grid-cols-1 gap-2', className)}>
      <Label htmlFor={id}>{label}</Label>
      <Select value={value ?? ALL} onValueChange={(next) => onChange(next === ALL ? undefined : next)}>
        <SelectTrigger id={id}>
          <SelectValue />
        </SelectTrigger>
        {/* A long course title wraps inside the list instead of running off a phone's screen. */}
        <SelectContent collisionPadding={16} className="max-w-(--radix-select-content-available-width)">
          {children}
        </SelectContent>
      </Select>
    </div>
  );
}

/** The email search: what is typed shows at once, and is applied `SEARCH_DELAY_MS` after the last key. */
function EmailSearch({ value, onSearch, className }: { value: string; onSearch: (q: string) => void; className?: string }) {
  const id = useId();
  const [draft, setDraft] = useState(value);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  // The address changed under the box (Back, 'Clear filters'): the box follows, unless it already says the same.
  const [applied, setApplied] = useState(value);
  if (value !== applied) {
    setApplied(value);
    if (value !== draft.trim()) setDraft(value);
  }

  const type = (text: string) => {
    setDraft(text);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => onSearch(text.trim()), SEARCH_DELAY_MS);
  };
  // Enter searches at once.
  const searchNow = () => {
    clearTimeout(timer.current);
    onSearch(draft.trim());
  };

  return (
    <div className={cn('grid min-w-0 grid-cols-1 gap-2', className)}>
      <Label htmlFor={id}>{m.search}</Label>
      <div className="relative">
        <Search aria-hidden="true" className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" />
        <Input
          id={id}
          type="search"
          inputMode="email"
          autoComplete="off"
          spellCheck={false}
          maxLength={254}
          placeholder={m.searchPlaceholder}
          className="pl-9"
          value={draft}
          onChange={(event) => type(event.target.value)}
          onKeyDown={(event) => event.key === 'Enter' && searchNow()}
        />
      </div>
    </div>
  );
}
