// video areas: an MP4 from images/ looping in the area at its own frame rate (ffmpeg).
import { notVideo } from '../../media/probe.js';
import type { AreaKind } from './area-type.js';
import type { AreaOf } from './normalized-area.js';
import { fallbackFile, fileFields, resolveFile } from './rules.js';

export const video: AreaKind<AreaOf<'video'>> = {
  type: 'video',
  keyed: true,
  media: 'drawn',
  files: ['.mp4'],
  // Checked at load by its header (src/media/sniff.ts): a file that is not an MP4 video is a configuration fault, not a
  // blank area later.
  configure: (r) => ({ ...r.base, ...fileFields(r, video.files!, { notMedia: notVideo }) }),
  resolve: resolveFile,
  fallback: fallbackFile,
};
