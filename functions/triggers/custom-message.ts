import type { CustomMessageTriggerEvent } from 'aws-lambda';
import { emailVerificationEmail, passwordResetEmail } from '#core/accounts/password-reset-email.ts';
import { required } from '#functions/config.ts';
import { invocation } from '#middleware/invocation.ts';
import { triggers } from '#functions/routes.ts';

/**
 * Cognito CustomMessage: the password reset email carries a link to the web app's /reset-password (Cognito's
 * default message has the code only); the email verification code (a user verifying their email in the app,
 * GetUserAttributeVerificationCode) comes in the platform's words. Other messages keep Cognito's defaults; invitations
 * are sent by the app itself (AdminCreateUser with MessageAction SUPPRESS).
 */
export const handler = (event: CustomMessageTriggerEvent): Promise<CustomMessageTriggerEvent> =>
  invocation({ trigger: triggers.customMessage.name, source: event.triggerSource }, async (log) => {
    const email = event.request.userAttributes['email'] ?? event.userName;
    if (event.triggerSource === 'CustomMessage_ForgotPassword') {
      const message = passwordResetEmail({ appOrigin: required('APP_ORIGIN'), email, codeParameter: event.request.codeParameter });
      event.response.emailSubject = message.subject;
      event.response.emailMessage = message.html;
    } else if (event.triggerSource === 'CustomMessage_VerifyUserAttribute') {
      const message = emailVerificationEmail({ email, codeParameter: event.request.codeParameter });
      event.response.emailSubject = message.subject;
      event.response.emailMessage = message.html;
    } else {
      return event;
    }
    log.info('custom message');
    return event;
  });
