// Patch subscriptions (Protocol/PROTOCOL.md, "Patches") in the Node client: RFC 6902 application, and random edits of
// a TodoList whose materialized value must equal vm.get.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, applyPatch, PatchError } from '../src/index.js';
import { startDaemon } from '../src/testing.js';

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

test('applyPatch follows RFC 6902 and leaves its input alone', () => {
  const document = { foo: ['bar', 'baz'], q: { x: 1 } };
  const result = applyPatch(document, [
    { op: 'add', path: '/foo/1', value: 'qux' },
    { op: 'remove', path: '/foo/0' },
    { op: 'replace', path: '/q/x', value: 2 },
    { op: 'add', path: '/foo/-', value: 'end' },
    { op: 'copy', from: '/q', path: '/r' },
    { op: 'move', from: '/foo/0', path: '/first' },
    { op: 'test', path: '/r/x', value: 2 },
    { op: 'add', path: '/a~1b', value: null },
  ]);
  assert.deepEqual(result, { foo: ['baz', 'end'], q: { x: 2 }, r: { x: 2 }, first: 'qux', 'a/b': null });
  assert.deepEqual(document, { foo: ['bar', 'baz'], q: { x: 1 } });
});

test('applyPatch refuses what cannot apply, naming the operation', () => {
  for (const patch of [
    [{ op: 'remove', path: '/x' }],
    [{ op: 'replace', path: '/a/01', value: 1 }],
    [{ op: 'test', path: '/a/0', value: 9 }],
    [{ op: 'move', from: '/a', path: '/a/0' }],
    [{ op: 'frobnicate', path: '' }],
  ]) {
    assert.throws(() => applyPatch({ a: [0, 1] }, patch), (error) => error instanceof PatchError && /operation 0/.test(error.message));
  }
});

// A small seeded generator (mulberry32), so a failing run is reproducible.
function seeded(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

test('random edits of a TodoList: the materialized value equals vm.get after each', async () => {
  const random = seeded(14);
  const items = Array.from({ length: 30 }, (_, n) => ({ title: `item ${n} with a title long enough to make patches pay` }));
  const created = await vmd.create('TodoList', { id: 'todo-node', args: { items }, subscribe: { outputs: ['items'], patches: true } });
  const sub = created.subscription;
  let view = (await sub.next()).value.value;
  let patches = 0;
  for (let step = 0; step < 150; step += 1) {
    const ids = view.map((item) => item.id);
    const id = ids[Math.floor(random() * ids.length)];
    const kind = Math.floor(random() * 6);
    if (ids.length > 0 && kind === 0) await vmd.send('todo-node', 'remove', id);
    else if (ids.length > 0 && kind === 1) await vmd.send('todo-node', 'rename', { id, title: `renamed ${step}` });
    else if (ids.length > 0 && kind < 4) await vmd.send('todo-node', 'toggle', id);
    else await vmd.send('todo-node', 'add', `new item ${step}`);
    const { value: output } = await sub.next();
    if (output.patch) patches += 1;
    view = output.value;
    assert.deepEqual(view, await vmd.get('todo-node', 'items'), `step ${step}`);
  }
  assert.ok(patches > 100, `only ${patches} patches`);
});
