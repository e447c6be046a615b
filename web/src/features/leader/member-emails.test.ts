import { describe, expect, it } from 'vitest';
import { emailsInCsv, planRows, rowResults, splitEmails, summary } from './member-emails.ts';

describe('member emails', () => {
  it('splits a paste on commas, semicolons, spaces and new lines, and drops quotes and angle brackets around an address', () => {
    expect(splitEmails(' ann@example.com,bo@example.com;\t"cleo@example.com"\r\n<dan@example.com>\n\n')).toEqual([
      'ann@example.com',
      'bo@example.com',
      'cleo@example.com',
      'dan@example.com',
    ]);
    expect(splitEmails(' \n , ')).toEqual([]);
  });

  it('takes the email-looking cells of a CSV file, in any column', () => {
    expect(emailsInCsv('\uFEFFEmail,Name\r\nann@example.com,Ann\r\nBo,"bo@example.com"\r\nCleo\tcleo@example.com\r\n@,x@\r\n')).toEqual([
      'ann@example.com',
      'bo@example.com',
      'cleo@example.com',
    ]);
  });

  it('settles malformed rows, repeats (case aside) and active members before any request', () => {
    const { planned, toSend } = planRows(['Ann@Example.com', 'nope', 'ann@example.com', 'bo@example.com'], new Set(['bo@example.com']));
    expect(toSend).toEqual(['ann@example.com']);
    const results = rowResults(planned, [{ kind: 'no-seats' }]);
    expect(results).toEqual([
      { text: 'ann@example.com', outcome: { kind: 'no-seats' } },
      { text: 'nope', outcome: { kind: 'invalid' } },
      { text: 'ann@example.com', outcome: { kind: 'duplicate' } },
      { text: 'bo@example.com', outcome: { kind: 'member' } },
    ]);
    expect(summary(results)).toBe('0 added, 2 failed, 1 already a member');
  });
});
