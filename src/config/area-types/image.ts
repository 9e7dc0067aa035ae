// image areas: a PNG, JPEG or GIF from images/, centred and scaled down to fit; GIFs animate.
import { pictureFileFault } from '../../media/picture-header.js';
import type { AreaKind } from './area-type.js';
import type { AreaOf } from './normalized-area.js';
import { fallbackFile, fileFields, resolveFile } from './rules.js';

export const image: AreaKind<AreaOf<'image'>> = {
  type: 'image',
  keyed: true,
  decodedFirst: true,
  files: ['.png', '.jpg', '.jpeg', '.gif'],
  // Checked at load by its header: a picture too large to decode is a configuration fault, not a blown memory limit
  // later.
  configure: (r) => {
    const notPicture = (file: string) => pictureFileFault(file, r.settings.maxPicturePixels);
    return { ...r.base, ...fileFields(r, image.files!, { notPicture }) };
  },
  resolve: resolveFile,
  fallback: fallbackFile,
};
