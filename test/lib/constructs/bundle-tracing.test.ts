import { spawn } from 'node:child_process';
import { createSocket } from 'node:dgram';
import fs from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { routes } from '#functions/routes.ts';
import { bundleFunction } from '#lib/constructs/bundling.ts';
import { apiEvent, lambdaContext } from '#test/functions/http-event.ts';

const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'traced-bundle-'));
afterAll(() => fs.rmSync(outDir, { recursive: true, force: true }));

interface Subsegment {
  name: string;
  namespace?: string;
  trace_id?: string;
  parent_id?: string;
  aws?: Record<string, unknown>;
  http?: { response?: { status?: number } };
}

/**
 * A shipped bundle traced as in Lambda: the function's bundle runs in a process of its own with Lambda's environment
 * (AWS_EXECUTION_ENV switches Powertools' Tracer on, LAMBDA_TASK_ROOT puts X-Ray's SDK in its Lambda mode, the trace
 * header of the invocation), its DynamoDB calls answered by a stand-in, the X-Ray daemon a UDP socket of the test's.
 */
describe("a bundle's traces", () => {
  it("sends an X-Ray subsegment for each SDK call, under the invocation's trace, with the table it read", async () => {
    const route = routes.find((r) => r.name === 'leader-settings')!;
    const outfile = path.join(outDir, route.name, 'index.mjs');
    await bundleFunction({ name: route.name, handler: route.handler, outfile, routeModulesDir: path.join(outDir, route.name) });

    const daemon = createSocket('udp4');
    const segments: Subsegment[] = [];
    daemon.on('message', (packet) => segments.push(JSON.parse(packet.toString('utf8').split('\n')[1]!) as Subsegment));
    await new Promise<void>((resolve) => daemon.bind(0, '127.0.0.1', resolve));
    // The caller's stored profile (the middleware checks its role and status on every call), nothing else.
    const leaderProfile = { pk: { S: 'USER#leader-1' }, sk: { S: 'PROFILE' }, id: { S: 'leader-1' }, email: { S: 'leader-1@example.com' }, role: { S: 'leader' }, createdAt: { S: '2026-11-01T10:00:00.000Z' } };
    const dynamo = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const asked = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as { Key?: { pk?: { S?: string }; sk?: { S?: string } } };
        const profile = req.headers['x-amz-target'] === 'DynamoDB_20120810.GetItem' && asked.Key?.pk?.S === 'USER#leader-1' && asked.Key.sk?.S === 'PROFILE';
        res.writeHead(200, { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-requestid': 'dynamo-request-1' });
        res.end(profile ? JSON.stringify({ Item: leaderProfile }) : '{}');
      });
    });
    await new Promise<void>((resolve) => dynamo.listen(0, '127.0.0.1', resolve));

    const root = '1-67a0c0de-0123456789abcdef01234567';
    const event = apiEvent({ routeKey: `${route.method} ${route.path}`, sub: 'leader-1', groups: ['leader'] });
    const probe = [
      `const { handler } = await import(${JSON.stringify(pathToFileURL(outfile).href)});`,
      `const result = await handler(${JSON.stringify(event)}, ${JSON.stringify(lambdaContext)});`,
      'process.stdout.write(JSON.stringify(result));',
    ].join('\n');
    const child = spawn(process.execPath, ['--input-type=module', '-e', probe], {
      env: {
        PATH: process.env.PATH,
        AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x',
        LAMBDA_TASK_ROOT: outDir,
        AWS_LAMBDA_FUNCTION_NAME: route.name,
        _X_AMZN_TRACE_ID: `Root=${root};Parent=53995c3f42cd8ad8;Sampled=1`,
        AWS_XRAY_DAEMON_ADDRESS: `127.0.0.1:${(daemon.address() as AddressInfo).port}`,
        AWS_XRAY_CONTEXT_MISSING: 'LOG_ERROR',
        AWS_REGION: 'eu-west-2',
        AWS_ACCESS_KEY_ID: 'test',
        AWS_SECRET_ACCESS_KEY: 'test',
        TABLE_NAME: 'traced-table',
        DYNAMODB_ENDPOINT: `http://127.0.0.1:${(dynamo.address() as AddressInfo).port}`,
        LOG_LEVEL: 'silent',
        POWERTOOLS_METRICS_DISABLED: 'true',
      },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    // Subsegments go out as each call ends; give the last datagram a moment.
    await new Promise((resolve) => setTimeout(resolve, 200));
    daemon.close();
    dynamo.close();

    expect(code, err).toBe(0);
    expect((JSON.parse(out) as { statusCode: number }).statusCode).toBe(200);
    const calls = segments.filter((s) => s.namespace === 'aws');
    expect(calls.length).toBeGreaterThan(0);
    for (const call of calls) {
      expect(call).toMatchObject({ name: 'DynamoDB', trace_id: root, parent_id: '53995c3f42cd8ad8', http: { response: { status: 200 } } });
      expect(call.aws).toMatchObject({ region: 'eu-west-2', request_id: 'dynamo-request-1', table_name: 'traced-table' });
    }
    expect(calls.map((c) => c.aws?.['operation'])).toContain('GetItem');
  }, 60_000);
});
