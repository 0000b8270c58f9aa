// The README's Login session runs as written against the real vmd.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { startDaemon, REPO_ROOT } from '../src/testing.js';

let daemon;
before(async () => { daemon = await startDaemon(); });
after(async () => { if (daemon) await daemon.stop(); });

/** The README's `js` code blocks, in order. */
function readmeBlocks() {
  const readme = fs.readFileSync(path.join(REPO_ROOT, 'clients', 'node', 'README.md'), 'utf8');
  return [...readme.matchAll(/```js\n([\s\S]*?)```/g)].map((match) => match[1]);
}

/** Runs `block` as a module named `name` against the test daemon (no other VMD_ variable); its stdout lines. */
async function runBlock(block, name) {
  const source = block.replace('./clients/node/src/index.js', pathToFileURL(path.join(REPO_ROOT, 'clients', 'node', 'src', 'index.js')).href);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vmd-readme-'));
  const file = path.join(dir, name);
  fs.writeFileSync(file, source);
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('VMD_')));
  env.VMD_SOCKET = daemon.socketPath;
  const stdout = await new Promise((resolve, reject) => {
    execFile(process.execPath, [file], { env, timeout: 30000 }, (error, out, err) => (error ? reject(new Error(err || error.message)) : resolve(out)));
  });
  fs.rmSync(dir, { recursive: true, force: true });
  return stdout.trim().split('\n');
}

test('the README Login session is under 15 lines and runs', async () => {
  const block = readmeBlocks()[0];
  assert.ok(block.trim().split('\n').length < 15);
  const lines = await runBlock(block, 'login.mjs');
  assert.ok(lines.includes('true'));
  assert.equal(lines.at(-1), 'demo@example.com');
  assert.ok(lines.includes('5 loginSuccess demo@example.com'), lines.join('\n'));
  // The current values arrive with the create reply, before `.on('output')` runs: they are not lost.
  assert.deepEqual(lines.slice(0, 2), ['1 isLoginAllowed false', '2 isLoading false'], lines.join('\n'));
});

test('the README session example runs', async () => {
  const lines = await runBlock(readmeBlocks()[1], 'session.mjs');
  assert.match(lines[0], /^s[0-9]+$/);
  assert.deepEqual(lines.slice(1), ['[ 0, 1 ]']);
});
