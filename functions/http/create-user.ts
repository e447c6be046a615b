import { createUserBody } from '#contracts/admin-users.ts';
import { inviteUser } from '#core/admin/users.ts';
import { inviteUserDeps } from '#functions/composition/deps-admin.ts';
import { httpRoute, Reply } from '#middleware/http-route.ts';

/** POST /api/admin/users: 201 with the account, created with its role and invited by email; a taken email is 409. */
export const handler = httpRoute({ route: 'create-user', body: createUserBody }, async ({ body }): Promise<Reply> =>
  new Reply(201, await inviteUser(inviteUserDeps(), body)),
);
