import { describe, expect, it } from 'vitest';
import { passwordResetEmail, passwordResetLink, PRODUCT_NAME } from '#core/accounts/password-reset-email.ts';

const input = { appOrigin: 'https://courses.example.com/', email: "o'brien+1@example.com", codeParameter: '{####}' };

describe('the password reset email', () => {
  it('links to the reset page with the code placeholder kept literal and the email encoded', () => {
    expect(passwordResetLink(input)).toBe("https://courses.example.com/reset-password?code={####}&email=o'brien%2B1%40example.com");
  });

  it('names the product in the subject and carries the code in both parts', () => {
    const message = passwordResetEmail(input);
    expect(message.subject).toBe(`Reset your ${PRODUCT_NAME} password`);
    expect(message.html).toContain('{####}');
    expect(message.text).toContain('Your code is {####}. It expires in 1 hour.');
    expect(message.text).toContain(passwordResetLink(input));
  });

  it('escapes the email and the link in the HTML part', () => {
    const message = passwordResetEmail({ ...input, email: '<script>@example.com' });
    expect(message.html).not.toContain('<script>');
    expect(message.html).toContain('&lt;script&gt;@example.com');
    expect(message.html).toContain('reset-password?code={####}&amp;email=%3Cscript%3E%40example.com');
  });
});
