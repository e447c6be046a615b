import { updateUserBody, type AdminUser } from '#contracts/admin-users.ts';
import { updateUser } from '#core/admin/users.ts';
import { clock, directoryService, ids, userRepository } from '#functions/composition/deps.ts';
import { adminActor } from '#middleware/admin-actor.ts';
import { httpRoute } from '#middleware/http-route.ts';

/**
 * PATCH /api/admin/users/{userId} `{disabled?, role?}`: turns an account off or on again and/or moves it to another
 * role; one's own account can be neither turned off nor re-roled (409), nor can a creator's role change (409). Each
 * change is on the audit log.
 */
export const handler = httpRoute({ route: 'update-user', body: updateUserBody }, async ({ auth, params, body }): Promise<AdminUser> =>
  updateUser({ users: userRepository(), directory: directoryService(), clock, ids }, { actor: await adminActor(auth.userId), userId: params['userId']!, changes: body }),
);
