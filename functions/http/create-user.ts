import { createUserBody } from '#contracts/admin-users.ts';
import { inviteUser } from '#core/admin/users.ts';
import { inviteUserDeps } from '#functions/composition/deps-admin.ts';
import { adminActor } from '#middleware/admin-actor.ts';
import { httpRoute, Reply } from '#middleware/http-route.ts';

/** POST /api/admin/users: 201 with the account, created with its role and invited by email (and on the audit log); a taken email is 409. */
export const handler = httpRoute({ route: 'create-user', body: createUserBody }, async ({ auth, body }): Promise<Reply> =>
  new Reply(201, await inviteUser(inviteUserDeps(), { actor: await adminActor(auth.userId), body })),
);
