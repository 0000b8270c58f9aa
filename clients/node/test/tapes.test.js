// replayTape: the tapes recorded against vmd (Tests/Tapes) replay green through the Node client;
// a changed tape rejects with the divergence; bad tapes reject with BadTapeError.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { connect, replayTape, TapeMismatchError, BadTapeError, VmdError } from '../src/index.js';
import { startDaemon, REPO_ROOT } from '../src/testing.js';

const TAPES = path.join(REPO_ROOT, 'Tests', 'Tapes');
let daemon;
let scratch;

before(async () => {
  daemon = await startDaemon();
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'vmd-tapes-'));
});

after(async () => {
  if (daemon) await daemon.stop();
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

function writeTape(name, text) {
  const file = path.join(scratch, name);
  fs.writeFileSync(file, text);
  return file;
}

for (const name of ['counter.tape', 'login.tape', 'todolist.tape']) {
  test(`the recorded ${name} replays green`, async () => {
    assert.ok(await replayTape(path.join(TAPES, name), { path: daemon.socketPath }) >= 4);
  });
}

test('a tape from creation replays at its recorded pace, and fails back to back', async () => {
  // follow.tape: vmd recorded a Follow from its creation (a 100 ms load), toggled at t 412.
  const file = path.join(TAPES, 'follow.tape');
  const started = Date.now();
  assert.equal(await replayTape(file, { path: daemon.socketPath }), 1);
  assert.ok(Date.now() - started >= 400);
  await assert.rejects(replayTape(file, { path: daemon.socketPath, speed: null }),
    (error) => error instanceof TapeMismatchError && /step 1 \(line 6\): action toggle had another outcome/.test(error.message));
});

test('a SendList tape replays green twice: the upload and receipt ids each replay makes up are matched by place', async () => {
  // sendlist.tape: vmd recorded upload 2 and receipt sendreceipt-2; each replay stores another.
  const file = path.join(TAPES, 'sendlist.tape');
  assert.equal(await replayTape(file, { path: daemon.socketPath }), 4);
  assert.equal(await replayTape(file, { path: daemon.socketPath }), 4);
  const text = fs.readFileSync(file, 'utf8');
  const navigate = text.split('\n').find((line) => line.includes('"output":"navigate"'));
  const mutated = text.replace(navigate, navigate.replace('"instance":"sendreceipt-2"', '"instance":"sendreceipt-9"'));
  await assert.rejects(replayTape(writeTape('sendlist.tape', mutated), { path: daemon.socketPath }),
    (error) => error instanceof TapeMismatchError && /sendreceipt-9/.test(error.message));
});

test('a search the user waited for between keystrokes replays at its pace, and fails back to back', async () => {
  const file = path.join(TAPES, 'search.tape');
  assert.equal(await replayTape(file, { path: daemon.socketPath }), 3);
  await assert.rejects(replayTape(file, { path: daemon.socketPath, speed: null }),
    (error) => error instanceof TapeMismatchError && /output "results" differs at value #2/.test(error.message));
});

test('a changed expectation rejects with the first divergence and its step', async () => {
  const text = fs.readFileSync(path.join(TAPES, 'counter.tape'), 'utf8').replace('"value":40}', '"value":41}');
  await assert.rejects(replayTape(writeTape('changed.tape', text), { path: daemon.socketPath }), (error) => {
    assert.ok(error instanceof TapeMismatchError, String(error));
    assert.match(error.message, /output "count" differs at value #4\n  expected: 41\n  got:      40\n  after:    step 3 \(line 7\): input set 40/);
    return true;
  });
});

test('a changed outcome rejects at its action', async () => {
  const text = fs.readFileSync(path.join(TAPES, 'login.tape'), 'utf8').replace('{"result":"demo@example.com"}', '{"result":"someone@else"}');
  await assert.rejects(replayTape(writeTape('outcome.tape', text), { path: daemon.socketPath }),
    (error) => error instanceof TapeMismatchError && /step 3 \(line 7\): action submit had another outcome/.test(error.message));
});

for (const [text, expected] of [
  ['', 'the tape is empty'],
  ['{"tape":4,"type":"Counter"}\n', 'unsupported tape version 4'],
  ['{"tape":2,"type":"Counter","fromCreation":false,"dropped":5}\n', 'dropped the first 5 events'],
  ['{"tape":1,"type":"Nope"}\n', 'Unknown type "Nope"'],
  ['{"tape":1,"type":"Counter"}\n{"event":"input","inp', 'line 2: not JSON'],
  ['{"tape":1,"type":"Counter"}\n{"event":"action","action":"reset"}\n', 'is the tape truncated?'],
]) {
  test(`a bad tape rejects with BadTapeError: ${expected}`, async () => {
    await assert.rejects(replayTape(writeTape('bad.tape', text), { path: daemon.socketPath }),
      (error) => error instanceof BadTapeError && error.message.includes(expected));
  });
}

test('an instance created with record has its tape from creation; another is notRecording', async () => {
  const vmd = await connect({ path: daemon.socketPath });
  try {
    const { instance } = await vmd.create('Counter', { args: { start: 5 }, record: true });
    await vmd.send(instance, 'increment', 2);
    const tape = await vmd.tape(instance);
    assert.deepEqual(tape[0], { tape: 2, type: 'Counter', args: { start: 5 }, instance, fromCreation: true });
    assert.deepEqual(tape.slice(1).map((line) => [line.event, line.value]), [['output', 5], ['input', 2], ['output', 7]]);
    const plain = await vmd.create('Counter');
    await assert.rejects(vmd.tape(plain.instance), (error) => error instanceof VmdError && error.errorName === 'notRecording');
  } finally {
    await vmd.close();
  }
});
