// image areas: a PNG, JPEG or GIF from images/, centred and scaled down to fit; GIFs animate.
import { pictureFileFault } from '../../media/picture-header.js';
import type { AreaKind } from './area-type.js';
import { fallbackFile, fileFields, resolveFile } from './rules.js';

export const image: AreaKind = {
  type: 'image',
  keyed: true,
  files: ['.png', '.jpg', '.jpeg', '.gif'],
  // Checked at load by its header: a picture too large to decode is a configuration fault, not a blown memory limit later.
  configure: (r) => fileFields(r, image.files!, { notPicture: (file) => pictureFileFault(file, r.settings.maxPicturePixels) }),
  resolve: resolveFile,
  fallback: fallbackFile,
};
