import { beforeEach, describe, expect, it, vi } from 'vitest';

const answer = (status: number, body: unknown) => vi.fn(() => Promise.resolve(new Response(JSON.stringify(body), { status })));

// config.ts keeps the loaded config in module state: each test gets a fresh module.
beforeEach(() => vi.resetModules());
const freshConfig = () => import('./config.ts');

describe('loadConfig', () => {
  it('fetches /config.json once and serves it from then on', async () => {
    const { loadConfig, getConfig } = await freshConfig();
    const fetch = answer(200, { Region: 'eu-west-2', UserPoolId: 'eu-west-2_abc', UserPoolClientId: 'client', Extra: 1 });

    await loadConfig(fetch);
    await loadConfig(fetch);

    expect(fetch).toHaveBeenCalledTimes(1);
    expect(getConfig()).toEqual({ Region: 'eu-west-2', UserPoolId: 'eu-west-2_abc', UserPoolClientId: 'client' });
  });

  it('names the missing keys of an invalid file, and lets a later call try again', async () => {
    const { loadConfig, ConfigError } = await freshConfig();
    await expect(loadConfig(answer(200, { Region: 'eu-west-2' }))).rejects.toThrow(ConfigError);
    await expect(loadConfig(answer(200, { Region: 'eu-west-2' }))).rejects.toThrow(/UserPoolId, UserPoolClientId/);

    const config = { Region: 'r', UserPoolId: 'p', UserPoolClientId: 'c', CognitoEndpoint: 'http://127.0.0.1:9229' };
    await expect(loadConfig(answer(200, config))).resolves.toEqual(config);
  });

  it('fails clearly when the file is missing', async () => {
    const { loadConfig } = await freshConfig();
    await expect(loadConfig(answer(404, { error: 'not found' }))).rejects.toThrow('/config.json answered 404');
  });
});

describe('parseWebConfig', () => {
  it('refuses a CognitoEndpoint that is not a URL and empty required keys', async () => {
    const { parseWebConfig } = await freshConfig();
    expect(parseWebConfig({ Region: 'r', UserPoolId: '', UserPoolClientId: 'c', CognitoEndpoint: 'not a url' })).toEqual({ invalid: ['UserPoolId', 'CognitoEndpoint'] });
    expect(parseWebConfig(null)).toEqual({ invalid: ['Region', 'UserPoolId', 'UserPoolClientId'] });
  });

  it('keeps an optional PagesUrl (the published pages\' origin) without a trailing slash, and refuses one that is not a URL', async () => {
    const { parseWebConfig } = await freshConfig();
    const required = { Region: 'r', UserPoolId: 'p', UserPoolClientId: 'c' };
    expect(parseWebConfig({ ...required, PagesUrl: 'http://127.0.0.1:8089/' })).toEqual({ config: { ...required, PagesUrl: 'http://127.0.0.1:8089' } });
    expect(parseWebConfig({ ...required, PagesUrl: 'https://pages.example.com' })).toEqual({ config: { ...required, PagesUrl: 'https://pages.example.com' } });
    expect(parseWebConfig(required)).toEqual({ config: required });
    expect(parseWebConfig({ ...required, PagesUrl: 'pages.example.com' })).toEqual({ invalid: ['PagesUrl'] });
    expect(parseWebConfig({ ...required, PagesUrl: 'javascript:alert(1)' })).toEqual({ invalid: ['PagesUrl'] });
  });

  it("keeps an optional AppUrl (the app's own origin, where a custom domain's account links go) without a trailing slash", async () => {
    const { parseWebConfig } = await freshConfig();
    const required = { Region: 'r', UserPoolId: 'p', UserPoolClientId: 'c' };
    expect(parseWebConfig({ ...required, AppUrl: 'https://app.example.com/' })).toEqual({ config: { ...required, AppUrl: 'https://app.example.com' } });
    expect(parseWebConfig({ ...required, AppUrl: 'app.example.com' })).toEqual({ invalid: ['AppUrl'] });
  });
});
