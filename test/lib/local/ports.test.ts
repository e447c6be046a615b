import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { assertPortsFree, ephemeralRangeStart, freePorts, PortInUseError, portsFromEnv, startAgainOnPortTaken } from '#lib/local/ports.ts';

describe('the local cloud ports', () => {
  it('draws distinct free ports below the ephemeral range, where no outgoing connection can take them first', async () => {
    const ports = Object.values(await freePorts());
    expect(new Set(ports).size).toBe(ports.length);
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(20000);
      expect(port).toBeLessThan(ephemeralRangeStart());
    }
  });

  it('reads the ephemeral range from the kernel, and falls back to the IANA range', () => {
    expect(ephemeralRangeStart(() => '32768\t60999\n')).toBe(32768);
    expect(ephemeralRangeStart(() => 'nonsense')).toBe(49152);
    expect(ephemeralRangeStart(() => '1024 65535')).toBe(49152);
    expect(ephemeralRangeStart(() => { throw new Error('ENOENT'); })).toBe(49152);
  });

  it('names the variable that moves a port already in use', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen({ port: 0, host: '127.0.0.1' }, resolve));
    const taken = (server.address() as { port: number }).port;
    try {
      const ports = { ...(await freePorts()), pages: taken };
      const error = await assertPortsFree(ports).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PortInUseError);
      expect((error as PortInUseError).variable).toBe('PAGES_PORT');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('starts again on other ports when a drawn one was taken meanwhile, a few times, and fails on anything else', async () => {
    const logged: string[] = [];
    let starts = 0;
    const takenTwice = async () => {
      if (++starts <= 2) throw new PortInUseError(20123, 'PAGES_PORT');
      return 'started';
    };
    expect(await startAgainOnPortTaken(takenTwice, (line) => logged.push(line))).toBe('started');
    expect(starts).toBe(3);
    expect(logged).toHaveLength(2);
    await expect(startAgainOnPortTaken(async () => Promise.reject(new PortInUseError(20123, 'PAGES_PORT')))).rejects.toBeInstanceOf(PortInUseError);
    let other = 0;
    await expect(startAgainOnPortTaken(async () => Promise.reject(new Error(`java missing ${++other}`)))).rejects.toThrow('java missing 1');
  });

  it('takes a port from its variable and refuses one that is not a port', () => {
    expect(portsFromEnv({ API_PORT: '4100' }).api).toBe(4100);
    expect(() => portsFromEnv({ API_PORT: '70000' })).toThrow(/API_PORT=70000/);
  });
});
