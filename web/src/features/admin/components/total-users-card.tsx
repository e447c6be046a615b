import { Users } from 'lucide-react';
import type { AdminStats } from '@contracts/admin.ts';
import { StatCard } from '@/components/ui/stat-card.tsx';

/**
 * SPEC.md's Total Users card (with creator and learner counts), on the admin dashboard and the analytics alike; the
 * disabled accounts (still counted) are named once there are any.
 */
export function TotalUsersCard({ users }: { users: AdminStats['users'] }) {
  const count = (n: number) => n.toLocaleString('en-GB');
  const disabled = users.disabled > 0 ? ` · ${count(users.disabled)} disabled` : '';
  return (
    <StatCard
      label="Total Users"
      value={count(users.total)}
      detail={`${count(users.creators)} creators · ${count(users.learners)} learners${disabled}`}
      icon={Users}
    />
  );
}
