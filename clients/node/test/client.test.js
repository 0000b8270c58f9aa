// The Node client against the real vmd (one daemon for this file).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { once } from 'node:events';
import {
  connect, VmdError, ConnectionLostError, CallTimeoutError, FrameTooLargeError, Subscription,
} from '../src/index.js';
import { startDaemon, REPO_ROOT, DEMO } from '../src/testing.js';

const WAIT = 5000;
let daemon;
let vmd;

before(async () => {
  daemon = await startDaemon();
  vmd = await connect({ path: daemon.socketPath, timeoutMs: WAIT });
});

after(async () => {
  if (vmd) await vmd.close();
  if (daemon) await daemon.stop();
});

async function rejectsWith(promise, errorName, code) {
  await assert.rejects(promise, (error) => {
    assert.ok(error instanceof VmdError, `expected VmdError, got ${error}`);
    assert.equal(error.errorName, errorName);
    assert.equal(error.data.name, errorName);
    if (code !== undefined) assert.equal(error.code, code);
    assert.ok(error.message.length > 0);
    return true;
  });
}

describe('connecting', () => {
  test('VMD_SOCKET is used when no path is given', async () => {
    const saved = process.env.VMD_SOCKET;
    process.env.VMD_SOCKET = daemon.socketPath;
    try {
      const client = await connect({ timeoutMs: WAIT });
      assert.equal(client.path, daemon.socketPath);
      await client.close();
    } finally {
      if (saved === undefined) delete process.env.VMD_SOCKET; else process.env.VMD_SOCKET = saved;
    }
  });

  test('a missing socket rejects with ConnectionLostError naming the path', async () => {
    await assert.rejects(connect({ path: '/tmp/vmdt-none/none.sock' }), (e) => e instanceof ConnectionLostError && /none\.sock/.test(e.message));
  });
});

describe('daemon methods', () => {
  test('info reports protocol 1, limits and our socket', async () => {
    const info = await vmd.info();
    assert.equal(info.protocol, 1);
    assert.equal(info.socket, daemon.socketPath);
    assert.equal(info.limits.maxFrameBytes, 1048576);
  });

  test('discover serves Protocol/openrpc.json', async () => {
    const expected = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'Protocol', 'openrpc.json'), 'utf8'));
    assert.deepEqual(await vmd.discover(), expected);
  });

  test('a monitor sees another connection\'s request and its reply', async () => {
    const monitor = await vmd.monitor({ timeoutMs: WAIT });
    const other = await connect({ path: daemon.socketPath, timeoutMs: WAIT, checkProtocol: false });
    await other.call('vm.list');
    await other.close();
    const seen = [];
    while (!seen.some((m) => m.direction === 'out' && m.message?.result?.instances !== undefined)) {
      const { value } = await monitor.next();
      seen.push(value);
    }
    assert.ok(seen.some((m) => m.direction === 'in' && m.message?.method === 'vm.list'));
    await vmd.unmonitor(monitor);
    assert.equal(monitor.ended, true);
  });
});

describe('vm helpers', () => {
  test('types lists the catalog in name order and describes Counter', async () => {
    const names = (await vmd.types()).map((t) => t.name);
    assert.ok(names.includes('Counter') && names.includes('Login'));
    assert.deepEqual(names, [...names].sort());
    const [counter] = await vmd.types('Counter');
    assert.deepEqual(counter.inputs.slice(0, 3).map((i) => i.name), ['increment', 'decrement', 'set']);
    await rejectsWith(vmd.types('Conter'), 'unknownType', -31001);
  });

  test('create, get, send, execute, list, destroy', async () => {
    const created = await vmd.create('Counter', { args: { start: 5 } });
    assert.equal(created.type, 'Counter');
    assert.equal(created.scope, 'daemon');
    assert.equal(created.subscription, undefined);
    assert.equal(await vmd.get(created.instance, 'count'), 5);
    await vmd.send(created.instance, 'increment', 2);
    await vmd.send(created.instance, 'increment');
    assert.equal(await vmd.get(created.instance, 'count'), 8);
    assert.equal(await vmd.execute(created.instance, 'reset'), 0);
    assert.ok((await vmd.list()).some((e) => e.instance === created.instance && e.type === 'Counter'));
    await vmd.destroy(created.instance);
    await rejectsWith(vmd.get(created.instance, 'count'), 'unknownInstance', -31002);
  });

  test('a chosen id is used once; a second create is instanceExists', async () => {
    const created = await vmd.create('Counter', { id: 'node-chosen' });
    assert.equal(created.instance, 'node-chosen');
    await rejectsWith(vmd.create('Counter', { id: 'node-chosen' }), 'instanceExists', -31011);
    await rejectsWith(vmd.create('Counter', { id: 'bad id' }), 'invalidParams', -32602);
    await vmd.destroy('node-chosen');
  });

  test('a durable instance says so in its reply and in the list; with scope connection it is invalidParams', async () => {
    const created = await vmd.create('Counter', { id: 'node-durable', durable: true });
    assert.equal(created.durable, true);
    assert.ok((await vmd.list()).some((e) => e.instance === 'node-durable' && e.durable === true));
    await rejectsWith(vmd.create('Counter', { scope: 'connection', durable: true }), 'invalidParams', -32602);
    await vmd.destroy('node-durable');
  });

  test('errors carry code, message and data', async () => {
    const { instance } = await vmd.create('Counter');
    await rejectsWith(vmd.send(instance, 'incremnt', 1), 'unknownInput', -31003);
    await rejectsWith(vmd.get(instance, 'cont'), 'unknownOutput', -31004);
    await rejectsWith(vmd.execute(instance, 'rest'), 'unknownAction', -31005);
    await assert.rejects(vmd.send(instance, 'set', 'ten'), (e) => e.code === -31006 && e.data.expected === 'integer' && e.data.got === 'string');
    await assert.rejects(vmd.call('vm.sned', {}), (e) => e.code === -32601 && e.data.method === 'vm.sned');
    await assert.rejects(vmd.call('vm.get', { instance, output: 'count', extra: 1 }), (e) => e.code === -32602 && e.data.path === '/extra');
    await rejectsWith(vmd.unsubscribe('sub-none'), 'unknownSubscription', -31012);
    await vmd.destroy(instance);
  });

  test('a fire-and-forget failure arrives as a vm.error event', async () => {
    const { instance } = await vmd.create('Counter');
    const event = once(vmd, 'vm.error');
    await vmd.send(instance, 'set', 'ten', { notify: true });
    const [params] = await event;
    assert.equal(params.method, 'vm.send');
    assert.equal(params.error.data.name, 'invalidValue');
    await vmd.destroy(instance);
  });

  test('a message over the frame limit is refused locally and the connection stays usable', async () => {
    await assert.rejects(vmd.send('x', 'set', 'x'.repeat(1048576)), FrameTooLargeError);
    assert.equal((await vmd.info()).protocol, 1);
  });

  test('a value of a mebibyte of UTF-8 goes both ways', async () => {
    const { instance } = await vmd.create('TextField');
    const text = 'ü'.repeat(500000);
    await vmd.send(instance, 'set', text);
    assert.equal(await vmd.get(instance, 'text'), text);
    await vmd.destroy(instance);
  });
});

describe('subscriptions', () => {
  test('async iteration: replay first, live values, seq 1.., ends on vm.closed', async () => {
    const created = await vmd.create('Counter', { args: { start: 3 }, subscribe: true, subscriptionTimeoutMs: WAIT });
    assert.ok(created.subscription instanceof Subscription);
    await vmd.send(created.instance, 'increment', 4);
    await vmd.destroy(created.instance);
    const seen = [];
    for await (const out of created.subscription) seen.push([out.value, out.seq, out.replay]);
    assert.deepEqual(seen, [[3, 1, true], [7, 2, false]]);
    assert.equal(created.subscription.closedReason, 'destroyed');
  });

  test('events: output and closed', async () => {
    const { instance } = await vmd.create('Counter');
    const sub = await vmd.subscribe(instance, { outputs: ['count'], replay: false });
    const values = [];
    sub.on('output', (out) => values.push(out.value));
    const closed = once(sub, 'closed');
    await vmd.send(instance, 'set', 11);
    await vmd.send(instance, 'decrement');
    await vmd.destroy(instance);
    assert.deepEqual(await closed, ['destroyed']);
    assert.deepEqual(values, [11, 10]);
  });

  test('unsubscribe ends the iteration; waiting too long is a CallTimeoutError', async () => {
    const { instance } = await vmd.create('Counter');
    const sub = await vmd.subscribe(instance, { replay: false });
    await assert.rejects(sub.next({ timeoutMs: 100 }), CallTimeoutError);
    await vmd.unsubscribe(sub);
    assert.deepEqual(await sub.next(), { value: undefined, done: true });
    await vmd.destroy(instance);
  });

  test('two clients on one instance see the same values in the same order', async () => {
    const other = await connect({ path: daemon.socketPath, timeoutMs: WAIT });
    const { instance } = await vmd.create('Counter');
    const mine = await vmd.subscribe(instance, { timeoutMs: WAIT });
    const theirs = await other.subscribe(instance, { timeoutMs: WAIT });
    await Promise.all([vmd.send(instance, 'increment', 1), other.send(instance, 'increment', 10),
      vmd.send(instance, 'increment', 100)]);
    const a = (await mine.take(4)).map((o) => o.value);
    const b = (await theirs.take(4)).map((o) => o.value);
    assert.deepEqual(a, b);
    assert.equal(a.at(-1), 111);
    await other.destroy(instance);
    await other.close();
  });
});

describe('Login', () => {
  test('a demo login session', async () => {
    const login = await vmd.create('Login', { args: { latencyMs: 50 }, scope: 'connection', subscribe: true, subscriptionTimeoutMs: WAIT });
    await rejectsWith(vmd.execute(login.instance, 'submit'), 'actionNotEnabled', -31007);
    await vmd.send(login.instance, 'email', DEMO.email);
    await vmd.send(login.instance, 'password', DEMO.password);
    assert.equal(await vmd.get(login.instance, 'isLoginAllowed'), true);
    assert.equal(await vmd.execute(login.instance, 'submit', undefined, { timeoutMs: 5000 }), DEMO.email);
    const seen = (await login.subscription.take(6)).map((o) => [o.output, o.value]);
    assert.deepEqual(seen, [['isLoginAllowed', false], ['isLoading', false], ['isLoginAllowed', true],
      ['isLoading', true], ['loginSuccess', DEMO.email], ['isLoading', false]]);
    await vmd.destroy(login.instance);
  });

  test('a wrong password is actionFailed and a loginFailure event', async () => {
    const login = await vmd.create('Login', { args: { latencyMs: 10 }, subscribe: ['loginFailure'], subscriptionTimeoutMs: WAIT });
    await vmd.send(login.instance, 'email', DEMO.email);
    await vmd.send(login.instance, 'password', 'wrong-password');
    await assert.rejects(vmd.execute(login.instance, 'submit'), (e) => e.errorName === 'actionFailed' && typeof e.data.error.message === 'string');
    const { value } = await login.subscription.next();
    assert.equal(value.output, 'loginFailure');
    await vmd.destroy(login.instance);
  });

  test('cancel, daemon timeout and client timeout', async () => {
    const { instance } = await vmd.create('Login', { args: { latencyMs: 60000 } });
    await vmd.send(instance, 'email', DEMO.email);
    await vmd.send(instance, 'password', DEMO.password);
    const running = vmd.startExecute(instance, 'submit');
    assert.equal(await vmd.get(instance, 'isLoading'), true);
    await rejectsWith(vmd.execute(instance, 'submit'), 'actionNotEnabled');
    running.cancel();
    await rejectsWith(running.result, 'requestCancelled', -32800);
    await assert.rejects(vmd.execute(instance, 'submit', undefined, { timeoutMs: 30 }), (e) => e.code === -31009 && e.data.timeoutMs === 30);
    await assert.rejects(vmd.execute(instance, 'submit', undefined, { clientTimeoutMs: 100 }), CallTimeoutError);
    const watching = await vmd.subscribe(instance, { outputs: ['isLoading'], timeoutMs: WAIT });
    let latest = (await watching.next()).value;
    while (latest.value !== false) latest = (await watching.next()).value; // bounded by the stream's timeout
    assert.equal(await vmd.get(instance, 'isLoading'), false); // the timed-out call was cancelled in the daemon too
    await vmd.destroy(instance);
  });
});

describe('dropped connections', () => {
  test('pending calls and subscriptions reject with ConnectionLostError', async () => {
    const victim = await connect({ path: daemon.socketPath, timeoutMs: WAIT });
    const { instance } = await victim.create('Login', { args: { latencyMs: 60000 }, scope: 'connection' });
    await victim.send(instance, 'email', DEMO.email);
    await victim.send(instance, 'password', DEMO.password);
    const sub = await victim.subscribe(instance, { replay: false, timeoutMs: WAIT });
    const pending = victim.startExecute(instance, 'submit');
    await sub.next();
    const closed = once(victim, 'close');
    victim.socket.destroy(); // the connection drops under the client
    await assert.rejects(pending.result, ConnectionLostError);
    await assert.rejects(sub.next(), ConnectionLostError);
    await closed;
    assert.equal(victim.connected, false);
    await assert.rejects(victim.info(), ConnectionLostError);
    // Connection scope: the instance goes when the daemon notices the close, which other
    // connections' requests may precede; wait for it with a deadline.
    const deadline = Date.now() + WAIT;
    while ((await vmd.list()).some((e) => e.instance === instance)) {
      assert.ok(Date.now() < deadline, `${instance} outlived its connection`);
      await new Promise((resolve) => setImmediate(resolve));
    }
    await rejectsWith(vmd.get(instance, 'isLoading'), 'unknownInstance');
  });
});

describe('shutdown', () => {
  test('subscriptions close with reason shutdown and the daemon exits 0', async () => {
    const own = await startDaemon();
    try {
      const client = await connect({ path: own.socketPath, timeoutMs: WAIT });
      const created = await client.create('Counter', { subscribe: true, subscriptionTimeoutMs: WAIT });
      assert.deepEqual(await client.shutdown(), { stopping: true });
      const values = [];
      for await (const out of created.subscription) values.push(out.value);
      assert.deepEqual(values, [0]);
      assert.equal(created.subscription.closedReason, 'shutdown');
      const exit = await own.exit;
      assert.equal(exit.code, 0);
      await client.close();
    } finally {
      await own.stop();
    }
  });
});
