// Following durable instances across a daemon restart (PROTOCOL.md, section 18, "After a
// restart"), Node client against the real vmd: the daemon is killed (SIGKILL) or stopped
// (SIGTERM) and started again on the same socket and state directory; a reconnecting client
// emits 'daemonRestarted', its subscription to a durable Counter goes on with the current value,
// and its subscription to a non-durable one ends ('shutdown' at SIGTERM, 'daemonRestarted' when
// the reconnect finds it gone).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from '../src/index.js';
import { startDaemon } from '../src/testing.js';

const WAIT = 10000;

/** The subscription's values up to the first equal to `value`. */
async function until(sub, value) {
  const seen = [];
  while (seen.length === 0 || seen[seen.length - 1].value !== value) {
    const { value: output, done } = await sub.next();
    assert.ok(!done, `the subscription ended (${sub.closedReason}) before the value ${value}`);
    seen.push(output);
  }
  return seen;
}

for (const how of ['SIGKILL', 'SIGTERM']) {
  describe(`a daemon restart after ${how}`, () => {
    test('daemonRestarted, then the durable Counter\'s current value; the other one ends', async () => {
      const daemon = await startDaemon();
      const client = await connect({ path: daemon.socketPath, timeoutMs: WAIT, reconnect: true });
      try {
        const events = [];
        for (const name of ['daemonRestarted', 'reconnected']) client.on(name, () => events.push(name));
        const visits = await client.create('Counter', { id: 'visits', durable: true, subscribe: ['count'], subscriptionTimeoutMs: WAIT });
        const plain = await client.create('Counter', { id: 'plain', subscribe: ['count'], subscriptionTimeoutMs: WAIT });
        for (let i = 0; i < 3; i += 1) await client.send('visits', 'increment');
        await until(visits.subscription, 3);
        assert.equal((await plain.subscription.next()).value.value, 0);
        // The first value after the restart, with the events emitted when it was read.
        const firstAfter = new Promise((resolve) => visits.subscription.once('output', (output) => resolve({ output, events: [...events] })));

        if (how === 'SIGKILL') {
          daemon.process.kill('SIGKILL');
          assert.equal((await daemon.exit).signal, 'SIGKILL');
        }
        await daemon.restart();

        const first = await firstAfter;
        assert.deepEqual(first.events, ['daemonRestarted'], 'daemonRestarted comes before the current value');
        assert.equal(first.output.value, 3);
        assert.equal(first.output.replay, true);
        const current = (await until(visits.subscription, 3)).pop();
        assert.equal(current.instance, 'visits');
        assert.deepEqual(await plain.subscription.next(), { value: undefined, done: true });
        // A non-durable instance's 'shutdown' close (SIGTERM) is final; after SIGKILL the reconnect finds it gone.
        assert.equal(plain.subscription.closedReason, how === 'SIGKILL' ? 'daemonRestarted' : 'shutdown');

        await client.send('visits', 'increment');
        const live = (await visits.subscription.next()).value;
        assert.deepEqual([live.value, live.replay], [4, false]);
        await client.unsubscribe(visits.subscription);
        assert.deepEqual(await visits.subscription.next(), { value: undefined, done: true });
        assert.deepEqual((await client.list()).map((entry) => entry.instance), ['visits']);
      } finally {
        await client.close();
        await daemon.stop();
      }
    });
  });
}
