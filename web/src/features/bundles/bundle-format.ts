import { formatPounds } from '@/lib/format-money.ts';
import { publicBundlePath, urlOf } from '@/lib/paths.ts';

type Pricing = { separateAmount: number; savingAmount: number };

/** '£15 (23%)': what the bundle saves over the separate prices; undefined when it saves nothing. */
export const savingOf = ({ separateAmount, savingAmount }: Pricing): string | undefined =>
  savingAmount <= 0 || separateAmount <= 0 ? undefined : `${formatPounds(savingAmount)} (${Math.round((savingAmount / separateAmount) * 100)}%)`;

/** 'Saves £15 (23%)', or 'No saving' when the bundle costs as much as its courses or more. */
export const savingLabel = (pricing: Pricing): string => {
  const saving = savingOf(pricing);
  return saving ? `Saves ${saving}` : 'No saving';
};

/** '2 courses'. */
export const courseCount = (count: number): string => (count === 1 ? '1 course' : `${count} courses`);

/** The bundle's public page, absolute: what the creator shares. */
export const bundleLinkOf = (bundleId: string): string => urlOf(publicBundlePath(bundleId));
