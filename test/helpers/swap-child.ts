// Runs a configuration swap or a recovery in its own process so a test can SIGKILL it.
// argv: swap|recover <serviceDir> pause|run. With "pause" it prints "step <name>" after every
// step and waits for a line on stdin; with "run" it prints "ready", then "done <ms>" at the end.
import path from 'node:path';
import readline from 'node:readline';
import { recoverInterruptedSwap, stagingDirOf, swapConfiguration } from '../../src/config/archive/swap.js';

const [mode, dir, how] = process.argv.slice(2);
const lines = readline.createInterface({ input: process.stdin })[Symbol.asyncIterator]();
const pauseBetweenSteps =
  how === 'pause'
    ? async (step: string) => {
        process.stdout.write(`step ${step}\n`);
        await lines.next();
      }
    : undefined;
process.stdout.write('ready\n');
const t0 = performance.now();
if (mode === 'swap')
  await swapConfiguration(dir, stagingDirOf(dir), { keep: [path.join(dir, 'state')], pauseBetweenSteps });
else await recoverInterruptedSwap(dir, { pauseBetweenSteps });
process.stdout.write(`done ${performance.now() - t0}\n`);
process.exit(0);
