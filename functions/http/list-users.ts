import { adminUsersQuery, type AdminUserList } from '#contracts/admin-users.ts';
import { listUsers } from '#core/admin/users.ts';
import { userRepository } from '#functions/composition/deps.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** GET /api/admin/users?role=&cursor=: one page of a role's accounts, newest first (creators when no role is given). */
export const handler = httpRoute({ route: 'list-users', query: adminUsersQuery }, ({ query }): Promise<AdminUserList> =>
  listUsers({ users: userRepository() }, query.role, query.cursor),
);
