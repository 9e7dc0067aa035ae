// video areas: an MP4 from images/ looping in the area at its own frame rate (ffmpeg).
import { notVideo } from '../../media/probe.js';
import type { AreaKind } from './area-type.js';
import { fallbackFile, fileFields, resolveFile } from './rules.js';

export const video: AreaKind = {
  type: 'video',
  keyed: true,
  files: ['.mp4'],
  // Checked at load by its header (src/media/sniff.ts): a file that is not an MP4 video is a configuration fault, not a blank area later.
  configure: (r) => fileFields(r, video.files!, { notMedia: notVideo }),
  resolve: resolveFile,
  fallback: fallbackFile,
};
