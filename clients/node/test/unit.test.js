// Unit tests of the pure parts: the socket-path rule, framing, errors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import {
  defaultSocketPath, encodeFrame, LineSplitter, VmdError, FrameTooLargeError, CODE_NAMES, connect, Client,
} from '../src/index.js';
import fs from 'node:fs';
import { REPO_ROOT } from '../src/testing.js';
import path from 'node:path';

test('an explicit path wins over VMD_SOCKET and the runtime dir', () => {
  assert.equal(defaultSocketPath('/x.sock', { VMD_SOCKET: '/a.sock', XDG_RUNTIME_DIR: '/run/user/7' }, 7), '/x.sock');
});

test('VMD_SOCKET wins over the runtime dir, unless empty', () => {
  assert.equal(defaultSocketPath(undefined, { VMD_SOCKET: '/a.sock', XDG_RUNTIME_DIR: '/run/user/7' }, 7), '/a.sock');
  assert.equal(defaultSocketPath(undefined, { VMD_SOCKET: '', XDG_RUNTIME_DIR: '/run/user/7' }, 7), '/run/user/7/vmd.sock');
});

test('a relative or empty runtime dir falls back to /tmp/vmd-UID', () => {
  assert.equal(defaultSocketPath(undefined, { XDG_RUNTIME_DIR: 'rel' }, 1234), '/tmp/vmd-1234/vmd.sock');
  assert.equal(defaultSocketPath(undefined, { XDG_RUNTIME_DIR: '' }, 1234), '/tmp/vmd-1234/vmd.sock');
  assert.equal(defaultSocketPath(undefined, {}, 1000), '/tmp/vmd-1000/vmd.sock');
});

test('a socket path longer than sun_path is refused, counting bytes', async () => {
  await assert.rejects(connect({ path: '/tmp/' + 'é'.repeat(52) }), RangeError);
});

test('a frame is compact JSON and exactly one newline', () => {
  const frame = encodeFrame({ jsonrpc: '2.0', id: 1, method: 'vm.get', params: { instance: 'a\nb' } });
  assert.equal(frame.at(-1), 10);
  assert.equal(frame.indexOf(10), frame.length - 1);
  assert.deepEqual(JSON.parse(frame.toString()), { jsonrpc: '2.0', id: 1, method: 'vm.get', params: { instance: 'a\nb' } });
});

test('a body of exactly the limit is accepted and one more byte is refused', () => {
  const text = 'x'.repeat(1048576 - 2);
  assert.equal(encodeFrame(text).length, 1048577);
  assert.throws(() => encodeFrame(text + 'x'), FrameTooLargeError);
  assert.throws(() => encodeFrame('é'.repeat(6), 13), FrameTooLargeError); // 12 bytes + 2 quotes
});

test('lines survive byte-by-byte and random splits, multi-byte characters included', () => {
  const messages = Array.from({ length: 30 }, (_, i) => ({ id: i, text: 'é€𝄞'.repeat(i) }));
  const stream = Buffer.concat([...messages.map((m) => encodeFrame(m)), Buffer.from('\r\n  \n')]);
  let seed = 7;
  const random = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
  for (const chunking of ['bytewise', 'random']) {
    const splitter = new LineSplitter();
    const lines = [];
    for (let at = 0; at < stream.length;) {
      const size = chunking === 'bytewise' ? 1 : 1 + Math.floor(random() * 100);
      lines.push(...splitter.feed(stream.subarray(at, at + size)));
      at += size;
    }
    assert.deepEqual(lines.map((l) => JSON.parse(l)), messages);
    assert.equal(splitter.pendingBytes, 0);
  }
});

test('a line far longer than the frame limit is received whole', () => {
  const splitter = new LineSplitter();
  const big = encodeFrame({ v: 'y'.repeat(3000000) }, 10000000);
  const lines = [];
  for (let at = 0; at < big.length; at += 65536) lines.push(...splitter.feed(big.subarray(at, at + 65536)));
  assert.equal(lines.length, 1);
  assert.equal(JSON.parse(lines[0]).v.length, 3000000);
});

test('every protocol error keeps code, message, data and its symbolic name', () => {
  const document = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'Protocol', 'openrpc.json'), 'utf8'));
  const errors = document.components.errors;
  assert.deepEqual(new Set(Object.values(CODE_NAMES)), new Set(Object.keys(errors)));
  for (const [name, error] of Object.entries(errors)) {
    const built = VmdError.fromObject(error);
    assert.ok(built instanceof VmdError && built instanceof Error);
    assert.deepEqual([built.code, built.message, built.data, built.errorName], [error.code, error.message, error.data, name]);
  }
});

test('an unknown code keeps its data; a malformed error object still builds', () => {
  const later = VmdError.fromObject({ code: -31050, message: 'new', data: { name: 'later', x: 1 } });
  assert.deepEqual([later.code, later.errorName, later.data.x], [-31050, 'later', 1]);
  assert.equal(VmdError.fromObject({ code: -32601, message: 'm' }).errorName, 'methodNotFound');
  assert.equal(VmdError.fromObject('boom').code, -32603);
});

// A socket stand-in: the client writes frames to it, the test feeds it the daemon's bytes.
function fakeSocket() {
  const socket = new EventEmitter();
  socket.sent = [];
  socket.write = (frame) => { socket.sent.push(JSON.parse(frame)); return true; };
  socket.end = () => {};
  socket.destroy = () => {};
  return socket;
}

const line = (message) => JSON.stringify(message) + '\n';

/** A client on a fake socket, subscribed to `instance` (the fake daemon answers with `subscription`). */
async function subscribedOverAFakeSocket(instance, subscription) {
  const socket = fakeSocket();
  const client = new Client(socket, { path: '/fake.sock' });
  const subscribing = client.subscribe(instance);
  socket.emit('data', Buffer.from(line({ jsonrpc: '2.0', id: socket.sent[0].id, result: { subscription } })));
  return { socket, client, sub: await subscribing };
}

test('the replayed values that arrive with the create reply reach a listener attached after await', async () => {
  const socket = fakeSocket();
  const client = new Client(socket, { path: '/fake.sock' });
  const creating = client.create('Login', { subscribe: true });
  const out = (seq, output, value) => ({ jsonrpc: '2.0', method: 'vm.output',
    params: { subscription: 'sub-1', instance: 'l', output, seq, value, replay: true } });
  // The daemon sends the reply and the replay in one read, as it does over a real socket.
  socket.emit('data', Buffer.from(line({ jsonrpc: '2.0', id: socket.sent[0].id,
    result: { instance: 'l', type: 'Login', scope: 'daemon', subscription: 'sub-1' } })
    + line(out(1, 'isLoginAllowed', false)) + line(out(2, 'isLoading', false))));
  const login = await creating;
  const heard = [];
  login.subscription.on('output', (o) => heard.push([o.seq, o.output, o.value]));
  await new Promise((resolve) => setImmediate(resolve));
  socket.emit('data', Buffer.from(line({ ...out(3, 'isLoginAllowed', true), params: { ...out(3, 'isLoginAllowed', true).params, replay: false } })));
  assert.deepEqual(heard, [[1, 'isLoginAllowed', false], [2, 'isLoading', false], [3, 'isLoginAllowed', true]]);
});

test('an iterated subscription keeps no held copies of its outputs', async () => {
  const { socket, sub } = await subscribedOverAFakeSocket('l', 'sub-9');
  const first = sub.next();
  socket.emit('data', Buffer.from(line({ jsonrpc: '2.0', method: 'vm.output',
    params: { subscription: 'sub-9', instance: 'l', output: 'count', seq: 1, value: 4 } })));
  assert.equal((await first).value.value, 4);
  assert.equal(sub.held.length, 0);
});

test('a vm.overflow for seqs a gap already reported is not reported twice; an older uncounted one is', async () => {
  const { socket, sub } = await subscribedOverAFakeSocket('c', 'sub-3');
  const overflows = [];
  sub.on('overflow', (lost) => overflows.push([lost.from, lost.to]));
  await new Promise((resolve) => setImmediate(resolve));
  const out = (seq) => line({ jsonrpc: '2.0', method: 'vm.output', params: { subscription: 'sub-3', instance: 'c', output: 'count', seq, value: seq } });
  const overflow = (from, to) => line({ jsonrpc: '2.0', method: 'vm.overflow', params: { subscription: 'sub-3', instance: 'c', lost: { from, to } } });
  // After a resume: seq 1 was received, 2...5 went with the dropped socket, 6 was queued while
  // detached (a gap shows 2...5), then the daemon's vm.overflow for 2...5 (PROTOCOL.md, section 18).
  socket.emit('data', Buffer.from(out(1) + out(6) + overflow(2, 5)));
  assert.deepEqual(sub.lost, [[2, 5]]);
  assert.deepEqual(overflows, [[2, 5]]);
  // A range below the last seq that no gap covered is still counted.
  socket.emit('data', Buffer.from(overflow(10, 12) + overflow(7, 9)));
  assert.deepEqual(sub.lost, [[2, 5], [10, 12], [7, 9]]);
  assert.deepEqual(overflows, [[2, 5], [10, 12], [7, 9]]);
});

test('after a gap in seq or a vm.overflow, patches are dropped until a whole value arrives (PROTOCOL.md section 18)', async () => {
  const { socket, sub } = await subscribedOverAFakeSocket('todo-1', 'sub-1');
  const heard = [];
  sub.on('output', (o) => heard.push([o.seq, o.value]));
  const out = (seq, body) => line({ jsonrpc: '2.0', method: 'vm.output',
    params: { subscription: 'sub-1', instance: 'todo-1', output: 'items', seq, ...body } });
  const append = (element) => ({ patch: [{ op: 'add', path: '/-', value: element }] });
  socket.emit('data', Buffer.from(out(1, { value: [1] }) + out(2, append(2))
    + out(5, append(5)) + out(6, append(6))            // after a gap: no base
    + out(7, { value: [7] }) + out(8, append(8))
    + line({ jsonrpc: '2.0', method: 'vm.overflow', params: { subscription: 'sub-1', instance: 'todo-1', lost: { from: 9, to: 9 } } })
    + out(10, append(10))                              // after an overflow: no base
    + out(11, { value: [11] })));
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(heard, [[1, [1]], [2, [1, 2]], [7, [7]], [8, [7, 8]], [11, [11]]]);
});
