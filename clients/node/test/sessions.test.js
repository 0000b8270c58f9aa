// Sessions that survive a reconnect (PROTOCOL.md, section 18), Node client against the real vmd:
// the client's socket is dropped mid-stream and the client resumes on its own.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { connect, ConnectionLostError, VmdError } from '../src/index.js';
import { startDaemon, DEMO } from '../src/testing.js';

const WAIT = 10000;
let daemon;

before(async () => { daemon = await startDaemon(); });
after(async () => { if (daemon) await daemon.stop(); });

function within(promise, what) {
  let timer;
  const timeout = new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(`no ${what} within ${WAIT} ms`)), WAIT); });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

describe('resuming a session', () => {
  test('a reconnecting client opens a session, a plain one does not', async () => {
    const resuming = await connect({ path: daemon.socketPath, reconnect: true });
    const plain = await connect({ path: daemon.socketPath });
    try {
      assert.match(resuming.session, /^s[0-9]+$/);
      assert.equal(plain.session, null);
    } finally {
      await resuming.close();
      await plain.close();
    }
  });

  test('during a 10,000-increment burst every seq arrives once, in order, or is reported lost', async () => {
    const client = await connect({ path: daemon.socketPath, timeoutMs: WAIT, reconnect: true });
    const other = await connect({ path: daemon.socketPath, timeoutMs: WAIT });
    try {
      const session = client.session;
      const counter = await client.create('Counter', { scope: 'connection', subscribe: ['count'], subscriptionTimeoutMs: WAIT });
      const sub = counter.subscription;
      assert.equal((await sub.next()).value.value, 0);
      const resumed = within(once(client, 'resumed'), 'resumed event');
      for (let index = 0; index < 10000; index += 1) {
        other.notify('vm.send', { instance: counter.instance, input: 'increment' });
        if (index === 3000) client._dropConnection();
      }
      assert.equal(await other.get(counter.instance, 'count'), 10000);
      const seqs = [];
      for (;;) {
        const { value } = await sub.next();
        seqs.push(value.seq);
        if (value.value === 10000) break;
      }
      const [event] = await resumed;
      assert.equal(event.session, session);
      assert.deepEqual(seqs, [...new Set(seqs)].sort((a, b) => a - b), 'each seq once, in order');
      const covered = new Set(seqs);
      for (const [from, to] of sub.lost) for (let seq = from; seq <= to; seq += 1) covered.add(seq);
      for (let seq = 2; seq <= seqs.at(-1); seq += 1) assert.ok(covered.has(seq), `seq ${seq} neither delivered nor reported lost`);
      for (const range of event.lost) assert.ok(sub.lost.some(([from, to]) => from === range.fromSeq && to === range.toSeq));
      assert.equal(await client.get(counter.instance, 'count'), 10000, 'the same connection-scoped instance');
    } finally {
      await client.close();
      await other.close();
    }
  });

  test('values the dropped socket took with it are reported lost, and the newest value still arrives', async () => {
    const client = await connect({ path: daemon.socketPath, timeoutMs: WAIT, reconnect: true });
    const other = await connect({ path: daemon.socketPath, timeoutMs: WAIT });
    try {
      const counter = await client.create('Counter', { scope: 'connection', subscribe: ['count'], subscriptionTimeoutMs: WAIT });
      const sub = counter.subscription;
      assert.equal((await sub.next()).value.value, 0);
      const resumed = within(once(client, 'resumed'), 'resumed event');
      // The client stops reading, so the daemon hands the burst to a socket that is then
      // destroyed unread: nothing of it follows the resume unless session.resume says what
      // was received (PROTOCOL.md, section 18).
      client.socket.pause();
      for (let index = 0; index < 1000; index += 1) other.notify('vm.send', { instance: counter.instance, input: 'increment' });
      assert.equal(await other.get(counter.instance, 'count'), 1000);
      client._dropConnection();
      const outputs = [];
      for (;;) {
        const { value } = await within(sub.next(), 'the newest value');
        outputs.push(value);
        if (value.value === 1000) break;
      }
      const [event] = await resumed;
      const seqs = outputs.map((output) => output.seq);
      assert.deepEqual(seqs, [...new Set(seqs)].sort((a, b) => a - b), 'each seq once, in order');
      assert.equal(outputs.at(-1).replay, true, 'the newest value is replayed after the reported loss');
      assert.ok(sub.lost.length > 0, 'the values in the destroyed socket are reported lost');
      const covered = new Set(seqs);
      for (const [from, to] of sub.lost) for (let seq = from; seq <= to; seq += 1) covered.add(seq);
      for (let seq = 2; seq < seqs.at(-1); seq += 1) assert.ok(covered.has(seq), `seq ${seq} neither delivered nor reported lost`);
      assert.deepEqual(event.lost.map((range) => [range.fromSeq, range.toSeq]), sub.lost);
    } finally {
      await client.close();
      await other.close();
    }
  });

  test('a slow Login submit pending across the drop gets its reply', async () => {
    const client = await connect({ path: daemon.socketPath, timeoutMs: WAIT, reconnect: true });
    try {
      const login = await client.create('Login', { args: { latencyMs: 800 }, scope: 'connection' });
      await client.send(login.instance, 'email', DEMO.email);
      await client.send(login.instance, 'password', DEMO.password);
      const resumed = within(once(client, 'resumed'), 'resumed event');
      const submit = client.execute(login.instance, 'submit', undefined, { timeoutMs: 10000 });
      await new Promise((resolve) => setTimeout(resolve, 100));
      client._dropConnection();
      assert.equal(await submit, DEMO.email);
      assert.deepEqual((await resumed)[0].lost, []);
    } finally {
      await client.close();
    }
  });
});

describe('when the session cannot be resumed', () => {
  test('after the grace: sessionExpired, subscriptions end with that reason, the instance is gone', async () => {
    const short = await startDaemon({ args: ['--session-grace-ms', '100'] });
    const client = await connect({ path: short.socketPath, timeoutMs: WAIT, reconnect: true, reconnectDelayMs: 600 });
    try {
      const counter = await client.create('Counter', { scope: 'connection', subscribe: ['count'], subscriptionTimeoutMs: WAIT });
      const sub = counter.subscription;
      assert.equal((await sub.next()).value.value, 0);
      const expired = within(once(client, 'sessionExpired'), 'sessionExpired event');
      const reconnected = within(once(client, 'reconnected'), 'reconnected event');
      client._dropConnection();
      assert.ok((await expired)[0].session);
      assert.deepEqual(await sub.next(), { value: undefined, done: true });
      assert.equal(sub.closedReason, 'sessionExpired');
      await reconnected;
      await assert.rejects(client.get(counter.instance, 'count'), (error) => error instanceof VmdError && error.errorName === 'unknownInstance');
      assert.ok(client.session, 'a new session');
    } finally {
      await client.close();
      await short.stop();
    }
  });

  test('after a daemon restart: daemonRestarted, every subscription ends, a new session', async () => {
    const own = await startDaemon();
    const client = await connect({ path: own.socketPath, timeoutMs: WAIT, reconnect: true });
    try {
      const firstBoot = (await client.info()).bootId;
      const counter = await client.create('Counter', { subscribe: ['count'], subscriptionTimeoutMs: WAIT });
      const sub = counter.subscription;
      assert.equal((await sub.next()).value.value, 0);
      const restarted = within(once(client, 'daemonRestarted'), 'daemonRestarted event');
      await own.restart();
      const [event] = await restarted;
      assert.notEqual(event.bootId, firstBoot);
      assert.deepEqual(await sub.next(), { value: undefined, done: true });
      assert.ok(['shutdown', 'daemonRestarted'].includes(sub.closedReason), sub.closedReason);
      assert.deepEqual(await client.list(), []);
      assert.ok(client.session, 'a new session on the new daemon');
    } finally {
      await client.close();
      await own.stop();
    }
  });

  test('without reconnect a drop still fails what was pending', async () => {
    const client = await connect({ path: daemon.socketPath, timeoutMs: WAIT });
    const counter = await client.create('Counter', { subscribe: ['count'], subscriptionTimeoutMs: WAIT });
    await counter.subscription.next();
    client._dropConnection();
    await assert.rejects(counter.subscription.next(), ConnectionLostError);
    await client.close();
  });
});
