import { useId } from 'react';
import type { License } from '@contracts/licenses.ts';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select.tsx';
import { licenseName } from '../license-format.ts';
import { leaderMessages as m } from '../leader-messages.ts';

/** 'Group': which licence's group the screen shows (its course; an ended one says so). */
export function GroupPicker({ licenses, value, onChange }: { licenses: License[]; value: string; onChange: (licenseId: string) => void }) {
  const id = useId();
  return (
    <div className="grid grid-cols-1 gap-2 sm:max-w-96">
      <label htmlFor={id} className="text-sm font-medium">
        {m.groups.picker}
      </label>
      <Select value={value} onValueChange={onChange}>
        <SelectTrigger id={id}>
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          {licenses.map((license) => (
            <SelectItem key={license.id} value={license.id}>
              {licenseName(license, licenses)}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
    </div>
  );
}
