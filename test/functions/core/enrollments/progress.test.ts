import { describe, expect, it } from 'vitest';
import { passwordClasses, passwordPolicy } from '#contracts/auth.ts';
import { invitationEmail, makeTemporaryPassword } from '#core/enrollments/invitation-email.ts';
import { addDays, localDay, progressOf, studyStreak } from '#core/enrollments/progress.ts';

describe('progress', () => {
  it('is the rounded percent of the current lessons completed', () => {
    expect(progressOf([], ['a', 'b', 'c'])).toBe(0);
    expect(progressOf(['a'], ['a', 'b', 'c'])).toBe(33);
    expect(progressOf(['a', 'b'], ['a', 'b', 'c'])).toBe(67);
    expect(progressOf(['a', 'b', 'c'], ['a', 'b', 'c'])).toBe(100);
  });

  it('no longer counts a completed lesson that was deleted since', () => {
    expect(progressOf(['a', 'gone'], ['a', 'b'])).toBe(50);
  });

  it('is 0 for a course without lessons', () => {
    expect(progressOf(['gone'], [])).toBe(0);
  });
});

describe('the learner’s day', () => {
  it('is the calendar day in their time zone, not in UTC', () => {
    const at = new Date('2026-11-21T23:30:00.000Z');
    expect(localDay(at, 'UTC')).toBe('2026-11-21');
    expect(localDay(at, 'Asia/Tokyo')).toBe('2026-11-22');
    expect(localDay(new Date('2026-11-22T03:00:00.000Z'), 'America/Los_Angeles')).toBe('2026-11-21');
  });

  it('steps across month and year ends', () => {
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
  });
});

describe('the study streak', () => {
  it('counts consecutive active days ending today', () => {
    expect(studyStreak(['2026-11-19', '2026-11-20', '2026-11-21'], '2026-11-21')).toBe(3);
  });

  it('still counts a streak whose last day was yesterday (today is not over)', () => {
    expect(studyStreak(['2026-11-19', '2026-11-20'], '2026-11-21')).toBe(2);
  });

  it('is broken by a missed day', () => {
    expect(studyStreak(['2026-11-17', '2026-11-18', '2026-11-20', '2026-11-21'], '2026-11-21')).toBe(2);
    expect(studyStreak(['2026-11-18', '2026-11-19'], '2026-11-21')).toBe(0);
  });

  it('is 0 without activity', () => {
    expect(studyStreak([], '2026-11-21')).toBe(0);
  });

  it('runs across a month end', () => {
    expect(studyStreak(['2026-10-30', '2026-10-31', '2026-11-01'], '2026-11-01')).toBe(3);
  });
});

describe('the invitation', () => {
  // Issue 27 point 4: the title (the creator's words) is never the subject, and reads as quoted plain text in the body.
  it('names the course in the body (escaped), never in the subject, with the sign-in link and the temporary password', () => {
    const mail = invitationEmail({ appOrigin: 'https://app.example/', email: 'ann@example.com', courseTitle: 'Cooking <script>', temporaryPassword: 'Abcdefgh2345' });
    expect(mail.subject).toBe("You're invited to a course on Course Platform");
    expect(mail.text).toContain('you are enrolled in the course "Cooking <script>"');
    expect(mail.text).toContain('https://app.example/auth/login');
    expect(mail.text).toContain('Abcdefgh2345');
    expect(mail.text).toContain('you will choose your own password');
    expect(mail.html).toContain('Cooking &lt;script&gt;');
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('href="https://app.example/auth/login"');
  });

  it("keeps a creator's title from writing its own lines or subject: one line of plain text in the platform's sentence", () => {
    const title = 'Free prize!\r\nSubject: Claim now\n\nhttps://evil.example \u2028 <b>x</b>';
    const mail = invitationEmail({ appOrigin: 'https://app.example/', email: 'ann@example.com', courseTitle: title, temporaryPassword: 'Abcdefgh2345' });
    expect(mail.subject).toBe("You're invited to a course on Course Platform");
    expect(mail.text.split('\n')[0]).toBe('Course Platform: you are enrolled in the course "Free prize! Subject: Claim now https://evil.example <b>x</b>".');
    expect(mail.text).not.toMatch(/^Subject:/m);
    expect(mail.html).toContain('Course: <strong>Free prize!');
    expect(mail.html).not.toContain('<b>x</b>');
  });

  it('makes temporary passwords that meet the pool’s policy and differ', () => {
    let seed = 7;
    const random = (max: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % max;
    const passwords = Array.from({ length: 50 }, () => makeTemporaryPassword(random));
    for (const password of passwords) {
      expect(password.length).toBeGreaterThanOrEqual(passwordPolicy.minLength);
      expect(password).toMatch(passwordClasses.requireUppercase);
      expect(password).toMatch(passwordClasses.requireLowercase);
      expect(password).toMatch(passwordClasses.requireDigits);
    }
    expect(new Set(passwords).size).toBe(50);
  });
});
