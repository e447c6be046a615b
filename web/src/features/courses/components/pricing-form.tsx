import { useState, type FormEvent } from 'react';
import { priceAmount, type UpdateCourseBody } from '@contracts/courses.ts';
import { Button } from '@/components/ui/button.tsx';
import { FormField } from '@/components/ui/form-field.tsx';
import { Input } from '@/components/ui/input.tsx';
import { parsePounds, poundsInput } from '@/lib/format-money.ts';

type Field = 'priceAmount' | 'seatPriceAmount';

/** The pence of a price field, or the reason it is not one (the contract's rules, in pounds). */
const readPrice = (text: string): { pence: number } | { error: string } => {
  const pence = parsePounds(text);
  if (pence === undefined) return { error: 'Enter an amount in pounds, e.g. 29 or 29.99.' };
  const checked = priceAmount.safeParse(pence);
  return checked.success ? { pence } : { error: checked.error.issues[0]?.message ?? 'Not a price.' };
};

/**
 * A course's prices in pounds (stored in pence): one learner's place, and a seat of a team licence. Empty or 0 means
 * not for sale that way.
 */
export function PricingForm({
  initial,
  busy,
  onSubmit,
}: {
  initial: Record<Field, number>;
  busy: boolean;
  onSubmit: (body: Pick<UpdateCourseBody, Field>) => void;
}) {
  const [text, setText] = useState({ priceAmount: poundsInput(initial.priceAmount), seatPriceAmount: poundsInput(initial.seatPriceAmount) });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const price = readPrice(text.priceAmount);
    const seat = readPrice(text.seatPriceAmount);
    const found = { ...('error' in price ? { priceAmount: price.error } : {}), ...('error' in seat ? { seatPriceAmount: seat.error } : {}) };
    setErrors(found);
    if ('pence' in price && 'pence' in seat) onSubmit({ priceAmount: price.pence, seatPriceAmount: seat.pence });
  };

  return (
    <form noValidate aria-label="Course pricing" className="grid gap-4" onSubmit={submit}>
      <FormField label="Price (£)" description="What one learner pays. Empty or 0: not for sale." error={errors.priceAmount}>
        <Input inputMode="decimal" placeholder="0" value={text.priceAmount} onChange={(e) => setText({ ...text, priceAmount: e.target.value })} />
      </FormField>
      <FormField label="Team price per seat (£)" description="What a team pays per learner. Empty or 0: no team sales." error={errors.seatPriceAmount}>
        <Input inputMode="decimal" placeholder="0" value={text.seatPriceAmount} onChange={(e) => setText({ ...text, seatPriceAmount: e.target.value })} />
      </FormField>
      <Button type="submit" className="w-fit" loading={busy}>
        Save pricing
      </Button>
    </form>
  );
}
