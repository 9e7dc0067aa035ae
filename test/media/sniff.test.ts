// The load-time media check reads headers in-process (src/media/sniff.ts): for every kind of
// file it must reach the verdict ffprobe reaches, and it must not need ffprobe at all.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { notAudio, notVideo, probe, probeSync } from '../../src/media/probe.js';
import { sniffMedia } from '../../src/media/sniff.js';
import { makeBars, makeTone } from './helpers.js';

const REPO = path.resolve(import.meta.dirname, '../..');
const ffmpeg = (...args: string[]) => execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args]);

describe('media header check', () => {
  let dir: string;
  const files: Record<string, string> = {};
  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'mlds-sniff-'));
    const f = (name: string) => (files[name] = path.join(dir, name));
    makeBars(f('bars.mp4'), 10); // ffmpeg's default: moov after mdat
    ffmpeg('-i', files['bars.mp4'], '-c', 'copy', '-movflags', '+faststart', f('faststart.mp4'));
    ffmpeg('-f', 'lavfi', '-i', 'color=c=red:s=32x18:r=25:d=1', '-c:v', 'mpeg4', f('mpeg4-25fps.mp4'));
    ffmpeg('-f', 'lavfi', '-i', 'sine=frequency=440:duration=1', '-c:a', 'aac', '-f', 'mp4', f('sound-only.mp4'));
    // A cover picture is a "video" stream of one frame to ffprobe, not a video.
    copyFileSync(path.join(REPO, 'examples/images/logo.png'), f('cover.png'));
    ffmpeg(
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=440:duration=1',
      '-i',
      files['cover.png'],
      '-map',
      '0',
      '-map',
      '1',
      '-c:a',
      'aac',
      '-c:v',
      'png',
      '-disposition:v',
      'attached_pic',
      '-f',
      'mp4',
      f('with-cover.mp4'),
    );
    makeTone(f('tone.wav'), 440, 1);
    makeTone(f('tone.mp3'), 440, 1);
    ffmpeg('-f', 'lavfi', '-i', 'sine=frequency=440:duration=1', '-c:a', 'pcm_s16le', '-f', 'wav', f('pcm-named.mp3'));
    writeFileSync(f('notes.mp4'), 'this is not a video\n');
    writeFileSync(f('notes.mp3'), 'this is not a sound\n');
    writeFileSync(f('empty.mp4'), '');
    copyFileSync(files['cover.png'], f('logo.mp4'));
    copyFileSync(path.join(REPO, 'examples/images/test-pattern.mp4'), f('example.mp4'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('every file gets the verdict ffprobe gives it, for video and for audio', async () => {
    for (const [name, file] of Object.entries(files)) {
      const sniffed = sniffMedia(file);
      const probed = await probe(file);
      assert.ok('info' in sniffed, `${name}: ${JSON.stringify(sniffed)}`);
      if (!('info' in probed)) {
        // What ffprobe cannot read at all the header check must refuse as well.
        assert.ok(
          notVideo(sniffed.info) && notAudio(sniffed.info),
          `${name}: ffprobe ${JSON.stringify(probed)}, header ${JSON.stringify(sniffed.info)}`,
        );
        continue;
      }
      assert.equal(
        notVideo(sniffed.info) === undefined,
        notVideo(probed.info) === undefined,
        `${name} as video: header ${JSON.stringify(sniffed.info)}, ffprobe ${JSON.stringify(probed.info)}`,
      );
      assert.equal(
        notAudio(sniffed.info) === undefined,
        notAudio(probed.info) === undefined,
        `${name} as audio: header ${JSON.stringify(sniffed.info)}, ffprobe ${JSON.stringify(probed.info)}`,
      );
    }
  });

  test("a video's size and frame rate are those ffprobe reads", async () => {
    for (const name of ['bars.mp4', 'faststart.mp4', 'mpeg4-25fps.mp4', 'example.mp4']) {
      const s = sniffMedia(files[name]);
      const p = await probe(files[name]);
      assert.ok('info' in s && 'info' in p && s.info.video && p.info.video, name);
      assert.deepEqual([s.info.video.width, s.info.video.height], [p.info.video.width, p.info.video.height], name);
      assert.ok(
        Math.abs(s.info.video.fps - p.info.video.fps) < 0.01,
        `${name}: ${s.info.video.fps} vs ${p.info.video.fps}`,
      );
    }
  });

  test('configuration load needs no ffprobe: with none on PATH every file is still judged', () => {
    const saved = process.env.PATH;
    process.env.PATH = '';
    try {
      // Fresh copies: probeSync would otherwise answer from what probe() above cached.
      const copy = (name: string) => {
        const to = path.join(dir, `copy-${name}`);
        copyFileSync(files[name], to);
        return to;
      };
      const video = probeSync(copy('bars.mp4'));
      assert.ok('info' in video && notVideo(video.info) === undefined, JSON.stringify(video));
      const text = probeSync(copy('notes.mp4'));
      assert.ok('info' in text && /not an MP4/.test(notVideo(text.info) ?? ''), JSON.stringify(text));
      const sound = probeSync(copy('tone.mp3'));
      assert.ok('info' in sound && notAudio(sound.info) === undefined, JSON.stringify(sound));
    } finally {
      process.env.PATH = saved;
    }
  });

  test('a file that cannot be opened is an error, not a verdict', () => {
    assert.ok('error' in sniffMedia(path.join(dir, 'missing.mp4')));
  });
});
