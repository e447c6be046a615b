import { describe, expect, it } from 'vitest';
import { fromAddress } from '#adapters/ses-mailer.ts';

describe("an email's From header", () => {
  it("is the platform's address, with a branded school's name as the display name, quoted and escaped", () => {
    expect(fromAddress('noreply@courses.example', undefined)).toBe('noreply@courses.example');
    expect(fromAddress('noreply@courses.example', '  ')).toBe('noreply@courses.example');
    expect(fromAddress('noreply@courses.example', 'Clay & Kiln')).toBe('"Clay & Kiln" <noreply@courses.example>');
    expect(fromAddress('noreply@courses.example', 'The "Best" \\ School')).toBe('"The \\"Best\\" \\\\ School" <noreply@courses.example>');
    // The platform's own display name in MAIL_FROM gives way to the school's.
    expect(fromAddress('Course Platform <no-reply@example.com>', 'Clay & Kiln')).toBe('"Clay & Kiln" <no-reply@example.com>');
    expect(fromAddress('Course Platform <no-reply@example.com>', undefined)).toBe('Course Platform <no-reply@example.com>');
  });

  it('cannot be made to add a header, and carries a name beyond ASCII as an encoded word', () => {
    expect(fromAddress('noreply@courses.example', 'Evil\r\nBcc: all@example.com')).toBe('"Evil Bcc: all@example.com" <noreply@courses.example>');
    const encoded = fromAddress('noreply@courses.example', 'École de céramique');
    expect(encoded).toBe(`=?UTF-8?B?${Buffer.from('École de céramique').toString('base64')}?= <noreply@courses.example>`);
  });
});
