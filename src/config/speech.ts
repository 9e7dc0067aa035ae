// The `speech` section (announcements read aloud by espeak-ng, docs/speech.md): its schema
// fragment and its normalization, so schema.ts, normalize.ts and types.ts each carry one line.
import { resolveAsset } from './files.js';
import { parseIntLike } from './scalars.js';
import type { SpeechSettings } from './alert-speech-types.js';

type Raw = Record<string, unknown>;
type Fault = (path: string, message: string) => void;

export const SPEECH_DEFAULTS = { voice: 'en', rate: 160, volume: 80 } as const;

const HHMM = '([01]\\d|2[0-3]):[0-5]\\d';

export const speechSchema = {
  speech: {
    type: 'object',
    additionalProperties: false,
    properties: {
      // An espeak-ng voice name with its variant (`en`, `en-us`, `de`, `en+f3`): never an option or a path.
      voice: { type: 'string', pattern: '^[A-Za-z][A-Za-z0-9_+-]{0,39}$' },
      rate: { xInt: [80, 450] },
      volume: { xInt: [0, 100] },
      chime: { type: 'string', minLength: 1, maxLength: 255 },
      quietHours: { type: 'string', pattern: `^${HHMM}-${HHMM}$` },
      volumeSchedule: {
        type: 'array',
        maxItems: 48,
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['at', 'volume'],
          properties: { at: { type: 'string', pattern: `^${HHMM}$` }, volume: { xInt: [0, 100] } },
        },
      },
    },
  },
};

const isObj = (v: unknown): v is Raw => typeof v === 'object' && v !== null && !Array.isArray(v);
const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

export function speechOf(raw: unknown, serviceDir: string, fault: Fault): SpeechSettings | undefined {
  if (!isObj(raw)) return undefined;
  let chime: string | undefined;
  if (typeof raw.chime === 'string' && raw.chime !== 'none') {
    const r = resolveAsset(serviceDir, 'sounds', raw.chime);
    if ('error' in r) fault('/speech/chime', r.error);
    else chime = r.file;
  }
  let quietHours: SpeechSettings['quietHours'];
  if (typeof raw.quietHours === 'string' && new RegExp(`^${HHMM}-${HHMM}$`).test(raw.quietHours)) {
    const [from, to] = raw.quietHours.split('-');
    if (from === to)
      fault('/speech/quietHours', 'the start and the end must differ (a whole day of quiet is no speech at all)');
    else quietHours = { from: minutes(from), to: minutes(to), text: raw.quietHours };
  }
  const volumeSchedule: NonNullable<SpeechSettings['volumeSchedule']> = [];
  if (Array.isArray(raw.volumeSchedule)) {
    raw.volumeSchedule.forEach((e: unknown, i) => {
      if (!isObj(e) || typeof e.at !== 'string' || !new RegExp(`^${HHMM}$`).test(e.at)) return;
      const volume = parseIntLike(e.volume);
      if (volume === undefined) return;
      if (volumeSchedule.some((x) => x.text === e.at))
        fault(`/speech/volumeSchedule/${i}/at`, `"${e.at}" is given twice`);
      else volumeSchedule.push({ at: minutes(e.at), volume, text: e.at });
    });
    volumeSchedule.sort((a, b) => a.at - b.at);
  }
  return {
    voice: typeof raw.voice === 'string' ? raw.voice : SPEECH_DEFAULTS.voice,
    rate: parseIntLike(raw.rate) ?? SPEECH_DEFAULTS.rate,
    volume: parseIntLike(raw.volume) ?? SPEECH_DEFAULTS.volume,
    chime,
    quietHours,
    ...(volumeSchedule.length ? { volumeSchedule } : {}),
  };
}
