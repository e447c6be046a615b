import { request } from 'node:http';

/**
 * A request to `baseUrl` as a browser at `https://<host>/<path>` sends it: the Host header is the custom domain.
 * node:http, not fetch: fetch sends the URL's own host whatever the headers say.
 */
export const asHost = (baseUrl: string, host: string, path: string, method = 'GET'): Promise<{ status: number; text: string }> =>
  new Promise((resolve, reject) => {
    const url = new URL(baseUrl);
    const req = request({ host: url.hostname, port: url.port, path, method, headers: { host } }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end();
  });
