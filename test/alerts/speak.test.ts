import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Announcement, Speaker } from '../../src/capability/speaker.js';
import { SPEECH_COMPONENT } from '../../src/capability/speaker.js';
import type { Component } from '../../src/capability/component-contract.js';
import { serviceDir, start, until } from '../helpers/service.js';
import { atomFeed, capAlert, capServer } from './cap.js';
import { alertsConfig, isRed } from './setup.js';

/** Stands where the speech component (another capability) runs: it records what it is handed. */
class Recorder implements Component, Speaker {
  readonly name = SPEECH_COMPONENT;
  heard: Announcement[] = [];
  async start(): Promise<void> {}
  async reload(): Promise<void> {}
  async stop(): Promise<void> {}
  announce(a: Announcement) { this.heard.push(a); return { queued: true as const, position: this.heard.length }; }
}

test('with speak: true a new alert\'s instruction (else its headline) is handed to speech once, as a priority announcement from cap', async () => {
  const cap = await capServer();
  const sd = serviceDir(alertsConfig(cap.url('/feed.atom'), { speak: 'true' }));
  const svc = await start(sd);
  const speech = new Recorder();
  // The speech capability is not part of this branch's configuration: its seam is filled by hand.
  (svc.runtime as unknown as { running: Map<string, Component> }).running.set(SPEECH_COMPONENT, speech);
  try {
    cap.routes.set('/feed.atom', atomFeed([capAlert({ identifier: 'SAY-1', infos: [{ instruction: 'Move to higher ground now.' }] })]));
    await until(() => isRed(svc), 20_000, 'the alert on the panel');
    await until(() => speech.heard.length === 1, 10_000, 'the announcement');
    assert.deepEqual(speech.heard[0], { displayId: 'main', text: 'Move to higher ground now.', priority: true, source: 'cap' });
    cap.routes.set('/feed.atom', atomFeed([
      capAlert({ identifier: 'SAY-1', infos: [{ instruction: 'Move to higher ground now.' }] }),
      capAlert({ identifier: 'SAY-2', sent: '2026-11-28T11:00:00Z', infos: [{ headline: 'Bridge closed' }] }),
    ]));
    await until(() => speech.heard.length === 2, 10_000, 'the second announcement');
    assert.equal(speech.heard[1].text, 'Bridge closed', 'the headline when there is no instruction');
    const polls = cap.hits.get('/feed.atom')!;
    await until(() => cap.hits.get('/feed.atom')! >= polls + 3, 20_000, 'three more polls');
    assert.equal(speech.heard.length, 2, 'an alert is spoken once, not at every poll');
  } finally {
    await svc.close();
    await cap.close();
    sd.cleanup();
  }
});

test('without speak nothing is handed to speech', async () => {
  const cap = await capServer();
  const sd = serviceDir(alertsConfig(cap.url('/feed.atom')));
  const svc = await start(sd);
  const speech = new Recorder();
  (svc.runtime as unknown as { running: Map<string, Component> }).running.set(SPEECH_COMPONENT, speech);
  try {
    cap.routes.set('/feed.atom', atomFeed([capAlert({ identifier: 'QUIET-1', infos: [{ instruction: 'Stay inside.' }] })]));
    await until(() => isRed(svc), 20_000, 'the alert on the panel');
    assert.deepEqual(speech.heard, []);
  } finally {
    await svc.close();
    await cap.close();
    sd.cleanup();
  }
});
