// `npm run bench`: every benchmark, each figure against a baseline measured in the same run
// (the machines are shared and noisy). `--write` also replaces the figures in
// docs/performance.md; its hand-written part (from NOTES_HEADING on) is kept.
import { cpus } from 'node:os';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { benchCore } from './core.js';
import { benchRender } from './render.js';
import { benchOutputs } from './outputs.js';
import { benchScreenshot } from './screenshot.js';
import { benchReload } from './reload.js';
import { benchMedia } from './media.js';
import { benchStart } from './start.js';
import { benchFleet } from './fleet.js';
import { benchFleetScale } from './fleet-scale.js';
import { benchFeeds } from './feeds.js';
import { benchBoards } from './boards.js';
import { benchSpeech } from './speech.js';

/** Where the hand-written part of docs/performance.md starts: how to reproduce, and notes behind current designs. */
const NOTES_HEADING = '## How to reproduce';

const sections: Array<[string, () => Promise<string>]> = [
  ['Core service', benchCore],
  ['Start and idle memory', benchStart],
  ['Rendering', () => benchRender()],
  ['Outputs', benchOutputs],
  ['Screenshots', benchScreenshot],
  ['Reloads', benchReload],
  ['Media areas', benchMedia],
  ['Fleet over MQTT', benchFleet],
  ['Fleet at scale', benchFleetScale],
  ['Transit feeds', benchFeeds],
  ['Departure boards', benchBoards],
  ['Speech', benchSpeech],
];

const out: string[] = [
  '# Performance',
  '',
  `Latest \`npm run bench\` on ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC: ${cpus().length} ` +
    `x ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}.`,
  'Figures are ratios against a baseline measured in the same run; absolute numbers move with the shared machine.',
];
for (const [title, run] of sections) {
  process.stderr.write(`bench: ${title}...\n`);
  out.push('', `## ${title}`, '', await run());
}
const text = out.join('\n') + '\n';
console.log(text);
if (process.argv.includes('--write')) {
  const file = path.resolve(import.meta.dirname, '../docs/performance.md');
  const previous = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const notes = previous.indexOf(NOTES_HEADING);
  writeFileSync(file, notes < 0 ? text : `${text}\n${previous.slice(notes)}`);
  process.stderr.write('bench: wrote docs/performance.md\n');
}
