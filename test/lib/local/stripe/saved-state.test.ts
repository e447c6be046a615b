import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { savedState } from '#lib/local/stripe/saved-state.ts';
import { createState } from '#lib/local/stripe/state.ts';

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("the Stripe stand-in's state in the data dir", () => {
  it('is saved after a change and read back at the next start', async () => {
    dir = mkdtempSync(join(tmpdir(), 'stripe-state-'));
    const file = join(dir, 'stripe-stand-in.json');
    const first = savedState(file, () => undefined);
    expect(first.load()).toBeUndefined();
    const state = createState();
    first.track(state);
    state.invoiceSequence = 7;
    first.changed();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ invoiceSequence: 7 });

    state.invoiceSequence = 8;
    first.flush();
    expect(savedState(file, () => undefined).load()).toMatchObject({ invoiceSequence: 8 });
  });

  it('starts fresh, and says so, when the saved file is unreadable', () => {
    dir = mkdtempSync(join(tmpdir(), 'stripe-state-'));
    const file = join(dir, 'stripe-stand-in.json');
    writeFileSync(file, '{ half a file');
    const lines: string[] = [];
    expect(savedState(file, (line) => lines.push(line)).load()).toBeUndefined();
    expect(lines.join('\n')).toContain('fresh state');
  });
});
