import { Users } from 'lucide-react';
import type { AdminStats } from '@contracts/admin.ts';
import { StatCard } from '@/components/ui/stat-card.tsx';

/** SPEC.md's Total Users card (with creator and learner counts), on the admin dashboard and the analytics alike. */
export function TotalUsersCard({ users }: { users: AdminStats['users'] }) {
  return (
    <StatCard
      label="Total Users"
      value={users.total.toLocaleString('en-GB')}
      detail={`${users.creators.toLocaleString('en-GB')} creators · ${users.learners.toLocaleString('en-GB')} learners`}
      icon={Users}
    />
  );
}
