import type { PostConfirmationTriggerEvent } from 'aws-lambda';
import { completeSignUp } from '../core/accounts/complete-sign-up.ts';
import { cognitoDirectory } from '../adapters/cognito-directory.ts';
import { clock, userRepository } from '../deps.ts';
import { describeError, logger } from '../middleware/logger.ts';

/**
 * Cognito post confirmation: a confirmed self sign-up gets its profile, its counters and the creator group.
 * The pool id comes from the event (the pool's triggers cannot be configured with it: docs/decisions/0002).
 */
export const handler = async (event: PostConfirmationTriggerEvent): Promise<PostConfirmationTriggerEvent> => {
  const attributes = event.request.userAttributes ?? {};
  try {
    const deps = { users: userRepository(), clock, directory: cognitoDirectory(event.userPoolId) };
    const result = await completeSignUp(deps, {
      source: event.triggerSource,
      userId: attributes['sub'] ?? '',
      username: event.userName,
      email: (attributes['email'] ?? '').toLowerCase(),
    });
    logger.info('post confirmation', { source: event.triggerSource, userId: attributes['sub'], created: result.created });
    return event;
  } catch (error) {
    logger.error('post confirmation failed', { source: event.triggerSource, userId: attributes['sub'], ...describeError(error) });
    throw error;
  }
};
