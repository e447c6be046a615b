import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

/** Where `npm run build -w web` writes the SPA. */
export const webDist = join(repoRoot, 'web', 'dist');

/**
 * `npm run build -w web` (vite build into web/dist, or into `outDir`, a few seconds); rejects with the build's first
 * error line on failure. A local cloud builds into its own data folder: two clouds started at once (two browser test
 * runs, or one beside the bench's build) must not empty each other's folder while they serve it.
 */
export const buildWeb = (outDir?: string): Promise<void> =>
  new Promise((resolve, reject) => {
    const args = ['run', 'build', '-w', 'web', ...(outDir ? ['--', '--outDir', outDir, '--emptyOutDir'] : [])];
    const child = spawn('npm', args, { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) return resolve();
      const lines = output.split('\n').filter((l) => /error/i.test(l));
      reject(new Error(`web build failed (exit ${code}): ${(lines[0] ?? output.trim().split('\n').pop() ?? '').trim()}`));
    });
  });
