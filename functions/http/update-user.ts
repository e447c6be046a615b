import { updateUserBody, type AdminUser } from '#contracts/admin-users.ts';
import { setUserDisabled } from '#core/admin/users.ts';
import { directoryService, userRepository } from '#functions/deps.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** PATCH /api/admin/users/{userId} `{disabled}`: turns an account off or on again; one's own account cannot be turned off (409). */
export const handler = httpRoute({ route: 'update-user', body: updateUserBody }, ({ auth, params, body }): Promise<AdminUser> =>
  setUserDisabled({ users: userRepository(), directory: directoryService() }, { adminId: auth.userId, userId: params['userId']!, disabled: body.disabled }),
);
