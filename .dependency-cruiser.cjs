// The layers of src/ (docs/architecture.md), bottom first. A folder may import its own files
// and the folders of the layers below its own, nothing beside or above it: so no two folders
// can ever import each other, and the bottom knows nothing of the top. No files import each
// other in a loop either. Tests and the bench
// are not part of the house (they may import anything).
const LAYERS = [
  ['errors.ts', 'frame.ts', 'problem.ts', 'util'],
  ['version.ts'],
  ['time', 'text', 'media', 'native', 'fetch', 'log'],
  ['config'],
  ['control', 'output'],
  ['render'],
  ['capability'],
  ['boot', 'brightness', 'schedule', 'monitor', 'net', 'device', 'playback', 'feeds', 'alerts', 'speech', 'update'],
  ['http', 'fleet', 'preview'],
  ['runtime'],
  ['main.ts'],
  ['cli.ts'],
  ['launch.ts'],
];

const esc = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const place = (name) => (name.endsWith('.ts') ? `^src/${esc(name)}$` : `^src/${esc(name)}/`);

const forbidden = [];
LAYERS.forEach((layer, i) => {
  const above = LAYERS.slice(i + 1).flat();
  for (const name of layer) {
    const beside = layer.filter((other) => other !== name);
    const targets = [...beside, ...above];
    if (!targets.length) continue;
    forbidden.push({
      name: `layer:${name}`,
      comment: `src/${name} (layer ${i}) may import only its own files and the layers below it: ${LAYERS.slice(0, i).flat().join(', ') || 'nothing'}`,
      severity: 'error',
      from: { path: place(name) },
      to: { path: targets.map(place) },
    });
  }
});

forbidden.push({
  name: 'no-circular',
  comment: 'no loop of imports, inside a folder either: a module that needs another one\'s type takes it from where both can reach',
  severity: 'error',
  from: { path: '^src/' },
  to: { circular: true },
});

forbidden.push({
  name: 'no-unplaced-folder',
  comment: 'every file of src/ belongs to a layer: a new folder is added to LAYERS (and to docs/architecture.md)',
  severity: 'error',
  from: { path: '^src/', pathNot: LAYERS.flat().map(place) },
  to: {},
});

module.exports = {
  forbidden,
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['^test/', '^bench/'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
