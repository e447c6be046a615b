import { describe, expect, it } from 'vitest';
import { checkHostname } from '#core/domains/hostnames.ts';

const platform = ['app.platform.example', 'pages.platform.example'];

describe('which hostnames a creator may claim', () => {
  it.each([
    ['learn.example.com', 'learn.example.com'],
    ['  Learn.Example.COM.  ', 'learn.example.com'],
    ['example.co.uk', 'example.co.uk'],
    ['my-school.example.com', 'my-school.example.com'],
    ['école.example.fr', 'xn--cole-9oa.example.fr'],
    // The platform's apex is not its own hostname: only the app's and the pages' and what is under them.
    ['platform.example', 'platform.example'],
  ])('%s is claimed as %s', (input, hostname) => {
    expect(checkHostname(input, platform)).toEqual({ hostname });
  });

  it.each([
    ['localhost', "That is one of the platform's own addresses: use a domain of your own."],
    ['school.localhost', "That is one of the platform's own addresses: use a domain of your own."],
    ['app.platform.example', "That is one of the platform's own addresses: use a domain of your own."],
    ['evil.app.platform.example', "That is one of the platform's own addresses: use a domain of your own."],
    ['PAGES.platform.example.', "That is one of the platform's own addresses: use a domain of your own."],
    ['192.168.1.1', 'Enter a hostname, not an IP address.'],
    ['1.2.3.4.5', 'Enter a hostname, not an IP address.'],
    ['::1', 'Enter a hostname, not an IP address.'],
    ['[2001:db8::1]', 'Enter a hostname, not an IP address.'],
    ['example', 'Enter a full hostname with a dot, like learn.example.com.'],
    ['https://learn.example.com', 'Enter the hostname alone, like learn.example.com: no https:// and no path.'],
    ['learn.example.com/path', 'Enter the hostname alone, like learn.example.com: no https:// and no path.'],
    ['-learn.example.com', 'Enter a valid hostname: letters, digits and hyphens between the dots, like learn.example.com.'],
    ['learn_school.example.com', 'Enter a valid hostname: letters, digits and hyphens between the dots, like learn.example.com.'],
    ['learn..example.com', 'Enter a valid hostname: letters, digits and hyphens between the dots, like learn.example.com.'],
    ['*.example.com', 'Enter a valid hostname: letters, digits and hyphens between the dots, like learn.example.com.'],
    [`${'a'.repeat(64)}.example.com`, 'Enter a valid hostname: letters, digits and hyphens between the dots, like learn.example.com.'],
    [`${'a.'.repeat(127)}com`, 'Enter a valid hostname, like learn.example.com.'],
  ])('%s is refused', (input, problem) => {
    expect(checkHostname(input, platform)).toEqual({ problem });
  });
});
