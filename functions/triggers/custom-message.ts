import type { CustomMessageTriggerEvent } from 'aws-lambda';
import { passwordResetEmail } from '../core/accounts/password-reset-email.ts';
import { config } from '../config.ts';
import { logger } from '../middleware/logger.ts';

/**
 * Cognito CustomMessage: the password reset email carries a link to the web app's /reset-password (Cognito's
 * default message has the code only). Other messages keep Cognito's defaults; invitations are sent by the app
 * itself (AdminCreateUser with MessageAction SUPPRESS).
 */
export const handler = async (event: CustomMessageTriggerEvent): Promise<CustomMessageTriggerEvent> => {
  if (event.triggerSource !== 'CustomMessage_ForgotPassword') return event;
  const message = passwordResetEmail({
    appOrigin: config().APP_ORIGIN,
    email: event.request.userAttributes['email'] ?? event.userName,
    codeParameter: event.request.codeParameter,
  });
  event.response.emailSubject = message.subject;
  event.response.emailMessage = message.html;
  logger.info('custom message', { source: event.triggerSource });
  return event;
};
