import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { PathReport } from '../integration/faults/support.ts';
import { formatTable, errorRow, row, section, type Row } from './table.ts';

/**
 * Issue 16 point 6: the fault suite (test/integration/faults, docs/faults.md) run as it runs in CI, on a local cloud of
 * its own with faults on, each path reporting what was injected, the effects lost and doubled (both must be 0), and
 * how long after the database came back the first request succeeded. Run alone: `node --import tsx test/bench/faults.ts`.
 */
const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

export const faultsSection = 'Faults survived (the fault suite under load: injected faults vs effects lost and doubled)';

const describeInjected = (r: PathReport): string => {
  const parts = Object.entries(r.injected)
    .map(([service, n]) => [service, n.error + n.drop + n.slow, n.slow] as const)
    .filter(([, total]) => total > 0)
    .map(([service, total, slow]) => `${service} ${total}${slow ? ` (${slow} late)` : ''}`);
  return [...parts, `db ${r.database}`].join(', ');
};

const seconds = (ms: number | null) => (ms === null ? 'n/a' : `${(ms / 1000).toFixed(1)} s`);

/** Runs the fault suite with FAULT_REPORT set and turns its lines into rows. */
export const benchFaults = async (progress: (line: string) => void): Promise<Row[]> => {
  const dir = mkdtempSync(join(tmpdir(), 'bench-faults-'));
  const file = join(dir, 'report.jsonl');
  try {
    progress('the fault suite (npx vitest run --project integration test/integration/faults), a few minutes');
    const started = performance.now();
    const code = await new Promise<number | null>((resolve) => {
      const child = spawn('npx', ['vitest', 'run', '--project', 'integration', 'test/integration/faults'], {
        cwd: repoRoot,
        env: { ...process.env, FAULT_REPORT: file, LOG_LEVEL: 'silent' },
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      child.on('exit', resolve);
      child.on('error', () => resolve(null));
    });
    const reports = existsSync(file)
      ? readFileSync(file, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line) as PathReport)
      : [];
    const rows = reports.flatMap((r) => [
      row(`${r.path}: faults injected`, describeInjected(r)),
      row(`${r.path}: effects lost / doubled`, `${r.lost} / ${r.doubled}`, '0 / 0', r.lost === 0 && r.doubled === 0),
      ...(r.database === 'up' ? [] : [row(`${r.path}: first success after the database returned`, seconds(r.recoveryMs))]),
    ]);
    const paths = readdirSync(join(repoRoot, 'test', 'integration', 'faults')).filter((f) => f.endsWith('.test.ts')).length;
    rows.push(row('fault suite: paths reported, run time, exit', `${reports.length}, ${((performance.now() - started) / 1000).toFixed(0)} s, ${code}`, `${paths} paths, exit 0`, reports.length === paths && code === 0));
    return rows;
  } catch (error) {
    return [errorRow('fault suite', error)];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const rows = [section(faultsSection), ...(await benchFaults((line) => void process.stderr.write(`[faults] ${line}\n`)))];
  process.stdout.write(`${formatTable(rows)}\n`);
}
