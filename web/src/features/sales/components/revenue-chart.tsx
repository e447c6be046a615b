import { Bar, CartesianGrid, ComposedChart, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { CreatorAnalytics } from '@contracts/sales.ts';
import { axisTicks, CHART_HEIGHT, chartPoints, dayLabel, signedPounds } from '../sales-format.ts';

/**
 * Revenue (bars, pounds, left axis) and sales (line, count, right axis) per day, or per week over 90 and 365 days
 * (recharts). Loaded lazily by the overview, so the chart library stays out of the screen's chunk. Decoration for
 * assistive technology: no recharts accessibility layer (nothing focusable inside the aria-hidden figure); the
 * figure's caption says it in words.
 */
export function RevenueChart({ series }: { series: CreatorAnalytics['series'] }) {
  const { unit, points } = chartPoints(series);
  const data = points.map((point) => ({ label: dayLabel(point.date), revenue: point.revenue / 100, sales: point.sales }));
  // Whole pounds on an axis of at least £10 (a quiet window draws no scale of pence), below zero only for refunds.
  const pounds = axisTicks(Math.min(0, ...data.map((d) => d.revenue)), Math.max(10, ...data.map((d) => d.revenue)));
  const counts = axisTicks(0, Math.max(4, ...data.map((d) => d.sales)), true);
  return (
    <ResponsiveContainer width="100%" height={CHART_HEIGHT}>
      <ComposedChart accessibilityLayer={false} data={data} margin={{ top: 8, right: 0, bottom: 0, left: 0 }}>
        <CartesianGrid vertical={false} strokeDasharray="3 3" />
        <XAxis dataKey="label" tickLine={false} fontSize={12} interval="preserveStartEnd" minTickGap={24} />
        <YAxis
          yAxisId="revenue"
          tickLine={false}
          axisLine={false}
          fontSize={12}
          width={56}
          domain={[pounds[0]!, pounds.at(-1)!]}
          ticks={pounds}
          tickFormatter={(value: number) => signedPounds(Math.round(value * 100))}
        />
        <YAxis
          yAxisId="sales"
          orientation="right"
          tickLine={false}
          axisLine={false}
          fontSize={12}
          width={32}
          domain={[0, counts.at(-1)!]}
          ticks={counts}
        />
        <Tooltip
          cursor={{ fillOpacity: 0.1 }}
          labelFormatter={(label) => (unit === 'week' ? `Week of ${String(label)}` : String(label))}
          formatter={(value, name) => (name === 'Revenue' ? [signedPounds(Math.round(Number(value) * 100)), name] : [value, name])}
        />
        <Bar yAxisId="revenue" dataKey="revenue" name="Revenue" fill="var(--color-primary)" radius={[3, 3, 0, 0]} maxBarSize={24} isAnimationActive={false} />
        <Line yAxisId="sales" type="monotone" dataKey="sales" name="Sales" stroke="var(--color-ring)" strokeWidth={2} dot={false} isAnimationActive={false} />
      </ComposedChart>
    </ResponsiveContainer>
  );
}
