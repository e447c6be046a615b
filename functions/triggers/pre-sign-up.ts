import type { PreSignUpTriggerEvent } from 'aws-lambda';
import { checkSignUp } from '#core/accounts/sign-up-policy.ts';
import { invocation } from '#middleware/invocation.ts';
import { triggers } from '#functions/routes.ts';

/**
 * Cognito pre sign-up: only creators register themselves, and they are confirmed at once (their email unverified). A refusal is thrown:
 * Cognito answers the SignUp call with UserLambdaValidationException carrying this message.
 */
export const handler = (event: PreSignUpTriggerEvent): Promise<PreSignUpTriggerEvent> =>
  invocation({ trigger: triggers.preSignUp.name, source: event.triggerSource }, async (log) => {
    try {
      const { autoConfirm } = checkSignUp({
        source: event.triggerSource,
        attributes: event.request.userAttributes ?? {},
        metadata: { ...(event.request.validationData ?? {}), ...(event.request.clientMetadata ?? {}) },
      });
      // Confirmed at once, but the email is not verified: nobody has shown they own it. Until its owner verifies it
      // (the app's "Verify your email", Cognito's attribute verification) the platform sends no mail on the
      // account's behalf (core/mail/on-behalf.ts).
      if (autoConfirm) event.response.autoConfirmUser = true;
      log.info('pre sign-up', { accepted: true });
      return event;
    } catch (error) {
      log.warn('pre sign-up refused', { reason: (error as Error).message });
      throw error;
    }
  });
