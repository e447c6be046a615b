import { Bar, BarChart, CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { TrendWeek } from '@contracts/admin.ts';
import { formatPounds } from '@/lib/format-money.ts';
import { weekLabel } from './trend-summary.ts';

/**
 * The two trend charts (recharts). Loaded lazily by the analytics screen, so the chart library (~100 KB gzip) stays
 * out of the admin chunk; the figures' text summaries are rendered by the screen itself.
 */
export function SignUpsChart({ weeks }: { weeks: TrendWeek[] }) {
  const data = weeks.map((week) => ({ week: weekLabel(week.weekStart), signUps: week.signUps }));
  return (
    <ResponsiveContainer width="100%" height={220}>
      <BarChart accessibilityLayer={false} data={data} margin={{ top: 8, right: 8, bottom: 0, left: -16 }}>
        <CartesianGrid vertical={false} strokeDasharray="3 3" />
        <XAxis dataKey="week" tickLine={false} fontSize={12} interval="preserveStartEnd" />
        <YAxis allowDecimals={false} tickLine={false} fontSize={12} />
        <Tooltip cursor={{ fillOpacity: 0.1 }} formatter={(value) => [value, 'Sign-ups']} />
        <Bar dataKey="signUps" name="Sign-ups" fill="var(--color-primary)" radius={[4, 4, 0, 0]} isAnimationActive={false} />
      </BarChart>
    </ResponsiveContainer>
  );
}

export function MrrChart({ weeks }: { weeks: TrendWeek[] }) {
  // Plotted in whole pounds, on an axis of at least £100, so an empty platform does not draw a scale of pence.
  const data = weeks.map((week) => ({ week: weekLabel(week.weekStart), mrr: week.mrr / 100 }));
  return (
    <ResponsiveContainer width="100%" height={220}>
      <LineChart accessibilityLayer={false} data={data} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
        <CartesianGrid vertical={false} strokeDasharray="3 3" />
        <XAxis dataKey="week" tickLine={false} fontSize={12} interval="preserveStartEnd" />
        <YAxis
          tickLine={false}
          fontSize={12}
          width={56}
          allowDecimals={false}
          domain={[0, (max: number) => Math.max(100, Math.ceil(max))]}
          tickFormatter={(pounds: number) => formatPounds(pounds * 100)}
        />
        <Tooltip formatter={(value) => [formatPounds(Number(value) * 100), 'MRR']} />
        <Line type="monotone" dataKey="mrr" name="MRR" stroke="var(--color-primary)" strokeWidth={2} dot={false} isAnimationActive={false} />
      </LineChart>
    </ResponsiveContainer>
  );
}
