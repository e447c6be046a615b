import type { PostConfirmationTriggerEvent } from 'aws-lambda';
import { completeSignUp } from '#core/accounts/complete-sign-up.ts';
import { cognitoDirectory } from '#adapters/cognito-directory.ts';
import { clock, metrics, userRepository } from '#functions/composition/deps.ts';
import { invocation } from '#middleware/invocation.ts';
import { describeError } from '#middleware/logger.ts';
import { triggers } from '#functions/routes.ts';

/**
 * Cognito post confirmation: a confirmed self sign-up gets its profile, its counters and the creator group.
 * The pool id comes from the event (the pool's triggers cannot be configured with it: docs/decisions/0002).
 */
export const handler = (event: PostConfirmationTriggerEvent): Promise<PostConfirmationTriggerEvent> =>
  invocation({ trigger: triggers.postConfirmation.name, source: event.triggerSource }, async (log) => {
    const attributes = event.request.userAttributes ?? {};
    try {
      const deps = { users: userRepository(), clock, metrics, directory: cognitoDirectory(event.userPoolId) };
      const result = await completeSignUp(deps, {
        source: event.triggerSource,
        userId: attributes['sub'] ?? '',
        username: event.userName,
        email: (attributes['email'] ?? '').toLowerCase(),
      });
      log.info('post confirmation', { userId: attributes['sub'], created: result.created });
      return event;
    } catch (error) {
      log.error('post confirmation failed', { userId: attributes['sub'], ...describeError(error) });
      throw error;
    }
  });
