// Draws the example's pictures (committed under examples/images/), so their source is this script.
import { createCanvas } from 'canvas';
import { writeFileSync, mkdirSync } from 'node:fs';
import omggif from 'omggif';

const out = new URL('../examples/images/', import.meta.url).pathname;
mkdirSync(out, { recursive: true });

function logo(): void {
  const c = createCanvas(400, 400);
  const g = c.getContext('2d');
  g.fillStyle = '#003f7f';
  g.fillRect(0, 0, 400, 400);
  g.fillStyle = '#ffffff';
  g.font = 'bold 150px "DejaVu Sans"';
  g.textAlign = 'center';
  g.textBaseline = 'middle';
  g.fillText('M', 200, 210);
  writeFileSync(out + 'logo.png', c.toBuffer('image/png'));
}

function bus(): void {
  const c = createCanvas(120, 120);
  const g = c.getContext('2d');
  g.fillStyle = '#ffb000';
  g.fillRect(10, 20, 100, 70);
  g.fillStyle = '#202020';
  g.fillRect(20, 30, 35, 25);
  g.fillRect(65, 30, 35, 25);
  g.beginPath(); g.arc(30, 95, 12, 0, Math.PI * 2); g.arc(90, 95, 12, 0, Math.PI * 2); g.fill();
  writeFileSync(out + 'bus.png', c.toBuffer('image/png'));
  writeFileSync(out + 'bus.jpg', c.toBuffer('image/jpeg', { quality: 0.95 }));
}

/** A 4-frame arrow GIF with a two-colour palette: the animated-GIF example. */
function arrowGif(): void {
  const w = 64, h = 64;
  const buf = Buffer.alloc(w * h * 8 + 4096);
  const gif = new omggif.GifWriter(buf, w, h, { loop: 0, palette: [0x000000, 0x00c000] });
  for (let f = 0; f < 4; f++) {
    const px = new Array<number>(w * h).fill(0);
    for (let y = 16; y < 48; y++) for (let x = 0; x < 16; x++) px[y * w + ((x + f * 12) % w)] = 1;
    gif.addFrame(0, 0, w, h, px, { delay: 25 });
  }
  writeFileSync(out + 'arrow.gif', buf.subarray(0, gif.end()));
}

logo();
bus();
arrowGif();
console.log('wrote', out);
