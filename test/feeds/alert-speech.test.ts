// A feed's alert on an alert area with "speak": true is said by the feeds, once per new text,
// in the words the GTFS-realtime feed gives for speech (tts_header_text, else
// tts_description_text) when it has them, else as shown.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { FakeClock } from '../helpers/clock.js';
import { until } from '../helpers/wait.js';
import type { Announcement } from '../../src/capability/speaker.js';
import { alertsBoard, feedMessage, feedServer, feedsRig, gtfsZip, sec } from './fixtures.js';
import { schedule, T0, tripUpdates } from './gtfs-sample.js';

const en = (text: string) => ({ translation: [{ text, language: 'en' }] });

test(
  "a feed alert on a speaking alert area is said in the feed's tts header text, else its tts description " +
    'text; a renewal says nothing',
  async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mlds-gtfs-tts-'));
    const srv = await feedServer();
    const clock = new FakeClock(T0);
    const said: Announcement[] = [];
    const speaker = {
      announce: (a: Announcement) => {
        said.push(a);
        return { queued: true as const, position: 1 };
      },
      readout: () => ({ queued: false as const, reason: 'no-readout' as const }),
    };
    srv.bodies.set('/tu', tripUpdates(T0));
    srv.bodies.set(
      '/alerts',
      feedMessage(
        [
          {
            id: 'lift',
            alert: {
              activePeriod: [{ start: sec(T0 - 60_000) }],
              informedEntity: [{ stopId: 'S1' }],
              headerText: en('Lift S1 u/s'),
              ttsHeaderText: en('The lift at this stop is out of service'),
            },
          },
          {
            id: 'line',
            alert: {
              informedEntity: [{ stopId: 'S1' }],
              headerText: en('L12 div.'),
              ttsDescriptionText: en('Line twelve is diverted'),
            },
          },
        ],
        T0,
      ),
    );
    const zip = readFileSync(await gtfsZip(path.join(dir, 'g.zip'), schedule()));
    const cfg = alertsBoard(srv, 'vbb', ['S1'], { alertPriority: '6' }) as {
      displays: { stop1: { layout: { board: { alert: Record<string, unknown> } } } };
    };
    cfg.displays.stop1.layout.board.alert.speak = true;
    const rig = await feedsRig(cfg, clock, { 'gtfs.zip': zip }, undefined, { speech: speaker });
    try {
      await until(() => said.length === 1, 10_000, 'the alert said');
      assert.match(rig.applied[0], /alert=Lift%20S1%20u%2Fs%20%E2%80%A2%20L12%20div\./, 'shown as the feed writes it');
      assert.deepEqual(said[0], {
        displayId: 'stop1',
        text: 'The lift at this stop is out of service. Line twelve is diverted',
        priority: true,
        source: 'feed',
      });
      clock.advance(30_000);
      await until(() => rig.applied.length === 2, 10_000, 'the renewal');
      assert.equal(said.length, 1, 'a renewal of the same text is not said again');
    } finally {
      await rig.stop();
      await srv.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
);
