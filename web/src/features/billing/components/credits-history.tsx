import { useQuery } from '@tanstack/react-query';
import { aiTools, aiToolLabels, aiToolOfAction, type CreditTransaction } from '@contracts/credits.ts';
import { cn } from '@/lib/utils.ts';
import { aiPricesQueryOptions } from '../api/billing-queries.ts';
import { formatMonthDay } from '../format.ts';

/** Ledger lines that are not an AI tool's: what the creator did or what the plan gave. */
const otherActions: Readonly<Record<string, string>> = {
  monthly_allocation: 'Monthly credits',
  monthly_reset: 'Monthly credits',
  credit_top_up: 'Top-up',
};

/**
 * What a ledger line was, in words: each AI tool's charge and refund by the tool's name (issue 36; credits.ts
 * `aiToolOfAction`), the plan's credits and top-ups by theirs, anything else from its action name, so a line written
 * before a name was known still reads.
 */
export function transactionLabel(actionType: string): string {
  const ai = aiToolOfAction(actionType);
  if (ai) return ai.refund ? `${aiToolLabels[ai.tool]}: refund` : aiToolLabels[ai.tool];
  const known = otherActions[actionType];
  if (known) return known;
  const words = actionType.replaceAll('_', ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const signed = (credits: number): string => (credits > 0 ? `+${credits}` : credits < 0 ? `−${-credits}` : '0');

/** The card's recent charges and refunds (GET /api/me/credits `history`, newest first). */
export function CreditsHistory({ history }: { history: CreditTransaction[] }) {
  return (
    <section aria-labelledby="credits-history-title" className="grid gap-2">
      <h3 id="credits-history-title" className="text-sm font-medium">
        Recent activity
      </h3>
      {history.length === 0 ? (
        <p className="text-sm text-muted-foreground">Nothing yet. Charges and refunds show here.</p>
      ) : (
        <ul className="grid divide-y rounded-lg border text-sm" data-testid="credits-history">
          {history.map((line, index) => (
            <li key={`${line.createdAt}-${index}`} className="flex items-baseline justify-between gap-3 px-3 py-2">
              <span className="min-w-0">
                <span className="block truncate">{transactionLabel(line.actionType)}</span>
                <span className="text-xs text-muted-foreground">{formatMonthDay(line.createdAt)}</span>
              </span>
              <span className={cn('shrink-0 font-medium tabular-nums', line.credits > 0 && 'text-emerald-700')}>
                <span className="sr-only">{line.credits > 0 ? 'Added ' : 'Used '}</span>
                {signed(line.credits)}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** What each AI tool costs (GET /api/ai/prices, the table the server charges from); nothing while it loads or fails. */
export function AiPriceTable() {
  const prices = useQuery(aiPricesQueryOptions());
  if (!prices.data) return null;
  const table = prices.data;
  return (
    <section aria-labelledby="ai-prices-title" className="grid gap-2">
      <h3 id="ai-prices-title" className="text-sm font-medium">
        What AI tools cost
      </h3>
      <dl className="grid grid-cols-[1fr_auto] gap-x-4 gap-y-1 text-sm" data-testid="ai-prices">
        {aiTools.map((tool) => (
          <div key={tool} className="contents">
            <dt className="text-muted-foreground">{aiToolLabels[tool]}</dt>
            <dd className="text-right tabular-nums">{table[tool] === 1 ? '1 credit' : `${table[tool]} credits`}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
