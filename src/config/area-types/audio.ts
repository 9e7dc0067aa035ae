// audio areas: an MP3 or WAV from images/, looping to the ALSA device of `audioDevice`
// (src/playback/audio-areas.ts plays them; nothing is drawn but the area's background).
import { notAudio } from '../../media/probe.js';
import type { AreaKind } from './area-type.js';
import type { AreaOf } from './normalized-area.js';
import { fallbackFile, fileFields, resolveFile } from './rules.js';

export const audio: AreaKind<AreaOf<'audio'>> = {
  type: 'audio',
  keyed: true,
  media: 'played',
  files: ['.mp3', '.wav'],
  configure: (r) => ({ ...r.base, ...fileFields(r, audio.files!, { notMedia: notAudio }) }),
  resolve: resolveFile,
  fallback: fallbackFile,
};
