// Long actions through the Node client against the real vmd: onProgress before the result,
// cancellation, the latest strategy's actionSuperseded.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, VmdError } from '../src/index.js';
import { startDaemon } from '../src/testing.js';

const WAIT = 10000;
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

async function readySendList(uploadMs) {
  const { instance } = await vmd.create('SendList', { args: { uploadMs } });
  await vmd.send(instance, 'addRecipient', 'ada@example.com');
  await vmd.send(instance, 'message', 'Hello');
  return instance;
}

test('onProgress hears every report before execute resolves, completed never decreasing', async () => {
  const instance = await readySendList(200);
  const seen = [];
  let resolved = false;
  const result = await vmd.execute(instance, 'send', undefined, {
    onProgress: (progress) => { assert.equal(resolved, false); seen.push(progress); },
  });
  resolved = true;
  assert.ok(result.uploadId >= 1);
  assert.deepEqual(seen.map((p) => p.completed), [0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100]);
  assert.equal(seen.at(-1).message, 'uploaded');
  assert.equal(seen.at(-1).fraction, 1);
  assert.ok(seen.every((p) => p.instance === instance && p.action === 'send' && p.total === 100));
});

test('cancel after the first progress rejects with requestCancelled', async () => {
  const instance = await readySendList(60000);
  let pending;
  const first = new Promise((resolve) => {
    pending = vmd.startExecute(instance, 'send', undefined, { onProgress: resolve });
  });
  await first;
  pending.cancel();
  await assert.rejects(pending.result, (error) => error instanceof VmdError && error.errorName === 'requestCancelled');
});

test('latest: the first of two quick searches rejects with actionSuperseded, the second resolves', async () => {
  const { instance } = await vmd.create('Search', { args: { latencyMs: 300 } });
  const first = vmd.execute(instance, 'search', 'berry');
  const second = vmd.execute(instance, 'search', 'lemon');
  await assert.rejects(first, (error) => error instanceof VmdError && error.errorName === 'actionSuperseded' && error.code === -31017);
  assert.deepEqual(await second, ['lemon']);
});
