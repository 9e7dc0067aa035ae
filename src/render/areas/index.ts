import type { AreaType } from '../../config/types.js';
import { drawImage } from './image.js';
import { drawText } from './text.js';
import type { AreaDrawer } from './types.js';

const none: AreaDrawer = () => {};

/** Which drawer paints each area type. Types without a drawer yet (video, audio, web, date) paint only their background. */
export const drawers: Record<AreaType, AreaDrawer> = {
  static: drawText,
  text: drawText,
  dynamic: drawText,
  image: drawImage,
  date: none,
  video: none,
  audio: none,
  web: none,
};
