import type { PreSignUpTriggerEvent } from 'aws-lambda';
import { checkSignUp } from '../core/accounts/sign-up-policy.ts';
import { logger } from '../middleware/logger.ts';

/**
 * Cognito pre sign-up: only creators register themselves, and they are confirmed at once. A refusal is thrown:
 * Cognito answers the SignUp call with UserLambdaValidationException carrying this message.
 */
export const handler = async (event: PreSignUpTriggerEvent): Promise<PreSignUpTriggerEvent> => {
  try {
    const { autoConfirm } = checkSignUp({
      source: event.triggerSource,
      attributes: event.request.userAttributes ?? {},
      metadata: { ...(event.request.validationData ?? {}), ...(event.request.clientMetadata ?? {}) },
    });
    if (autoConfirm) {
      event.response.autoConfirmUser = true;
      if (event.request.userAttributes?.['email']) event.response.autoVerifyEmail = true;
    }
    logger.info('pre sign-up', { source: event.triggerSource, accepted: true });
    return event;
  } catch (error) {
    logger.warn('pre sign-up refused', { source: event.triggerSource, reason: (error as Error).message });
    throw error;
  }
};
