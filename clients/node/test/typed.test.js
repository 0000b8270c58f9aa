// `vmctl gen typescript` against the real daemon: the declarations and a script per catalog type
// pass `tsc --strict` and run; a misspelled input or a wrong field type fails the check;
// generation is deterministic; odd names (Tests/Types/odd-names.json) are kept exactly.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { startDaemon, REPO_ROOT } from '../src/testing.js';

const VMCTL_BIN = process.env.VMCTL_BIN || path.join(REPO_ROOT, '.build', 'debug', 'vmctl');
const SCRIPTS = path.join(REPO_ROOT, 'clients', 'node', 'test', 'typed');
const ODD_NAMES = path.join(REPO_ROOT, 'Tests', 'Types', 'odd-names.json');
/** Examples/Inbox's vm.types, saved (its daemon is not part of this build). */
const INBOX = path.join(REPO_ROOT, 'Tests', 'Types', 'inbox.json');
/** One script per catalog type (send-list covers SendList, SendReceipt and SendHistory). */
const CATALOG_SCRIPTS = ['counter', 'follow', 'login', 'send-list', 'text-field', 'todo-list'];
const TSC_OPTIONS = ['--strict', '--target', 'es2022', '--module', 'es2022', '--moduleResolution', 'node'];

let daemon;
let directory;

/** Runs `command`; resolves {code, stdout, stderr} whatever the exit status. */
function run(command, args, options = {}) {
  return new Promise((resolve) => {
    execFile(command, args, { timeout: 300000, maxBuffer: 16 << 20, ...options }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr });
    });
  });
}

/** tsc from Debian's node-typescript; in CI its absence is a failure, not a skip. */
function requireTsc(t) {
  try {
    execFileSync('tsc', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    const message = 'tsc is missing: apt-get install node-typescript';
    if (process.env.CI === 'true') assert.fail(message);
    t.skip(message);
    return false;
  }
}

const tsc = (files, extra = []) => run('tsc', [...TSC_OPTIONS, ...extra, ...files, 'node-shim.d.ts'], { cwd: directory });

before(async () => {
  assert.ok(fs.existsSync(VMCTL_BIN), `vmctl not found at ${VMCTL_BIN}: run \`swift build --product vmctl\` or set VMCTL_BIN`);
  daemon = await startDaemon();
  directory = fs.mkdtempSync('/tmp/vmd-typed-');
  // `vmd-client` is this client, as an app that installed it would import it.
  fs.mkdirSync(path.join(directory, 'node_modules'));
  fs.symlinkSync(path.join(REPO_ROOT, 'clients', 'node'), path.join(directory, 'node_modules', 'vmd-client'));
  fs.writeFileSync(path.join(directory, 'package.json'), '{"type": "module"}\n');
  for (const name of fs.readdirSync(SCRIPTS)) fs.copyFileSync(path.join(SCRIPTS, name), path.join(directory, name));
  const made = await run(VMCTL_BIN, ['gen', 'typescript', '--socket', daemon.socketPath, '-o', directory]);
  assert.equal(made.code, 0, made.stderr);
  const odd = await run(VMCTL_BIN, ['gen', 'typescript', '--types', ODD_NAMES, '--module', 'odd-types', '-o', directory]);
  assert.equal(odd.code, 0, odd.stderr);
  const inbox = await run(VMCTL_BIN, ['gen', 'typescript', '--types', INBOX, '--module', 'inbox-types', '-o', directory]);
  assert.equal(inbox.code, 0, inbox.stderr);
});

after(async () => {
  if (daemon) await daemon.stop();
  if (directory) fs.rmSync(directory, { recursive: true, force: true });
});

test('generating twice gives the same bytes, from the daemon and from a saved vm.types', async () => {
  const first = await run(VMCTL_BIN, ['gen', 'typescript', '--socket', daemon.socketPath]);
  const second = await run(VMCTL_BIN, ['gen', 'typescript', '--socket', daemon.socketPath]);
  const listed = await run(VMCTL_BIN, ['--socket', daemon.socketPath, '--json', 'types']);
  const saved = path.join(directory, 'types.json');
  fs.writeFileSync(saved, listed.stdout);
  const fromFile = await run(VMCTL_BIN, ['gen', 'typescript', '--types', saved]);
  assert.equal(first.code, 0, first.stderr);
  assert.equal(first.stdout, second.stdout);
  assert.equal(first.stdout, fromFile.stdout);
  assert.equal(first.stdout, fs.readFileSync(path.join(directory, 'vmd-types.d.ts'), 'utf8'));
  assert.match(first.stdout, /export interface ViewModels \{/);
});

test('the declarations and a script per catalog type pass tsc --strict and run against the daemon', async (t) => {
  if (!requireTsc(t)) return;
  const checked = await tsc([...CATALOG_SCRIPTS.map((name) => `${name}.ts`), 'vmd-types.d.ts'], ['--outDir', 'out']);
  assert.equal(checked.code, 0, checked.stdout + checked.stderr);
  for (const name of CATALOG_SCRIPTS) {
    const script = await import(pathToFileURL(path.join(directory, 'out', `${name}.js`)).href);
    await t.test(name, () => script.main(daemon.socketPath));
  }
});

test('a misspelled input and a wrong field type fail the type check', async (t) => {
  if (!requireTsc(t)) return;
  const checked = await tsc(['wrong-input-name.ts', 'wrong-field-type.ts', 'vmd-types.d.ts'], ['--noEmit']);
  assert.notEqual(checked.code, 0, checked.stdout);
  assert.match(checked.stdout, /wrong-input-name\.ts\(7,20\): error TS2769/);
  assert.match(checked.stdout, /Argument of type '"emial"' is not assignable to parameter of type '"password" \| "email"'/);
  assert.match(checked.stdout, /wrong-field-type\.ts\(7,\d+\): error TS2769/);
  assert.match(checked.stdout, /Type 'string' is not assignable to type 'number'/);
});

test('the Inbox example declarations from its saved vm.types pass tsc --strict with a script', async (t) => {
  if (!requireTsc(t)) return;
  const checked = await tsc(['inbox.ts', 'inbox-types.d.ts'], ['--noEmit']);
  assert.equal(checked.code, 0, checked.stdout + checked.stderr);
});

test('names that are not identifiers are kept exactly and pass tsc --strict', async (t) => {
  const source = fs.readFileSync(path.join(directory, 'odd-types.d.ts'), 'utf8');
  for (const type of JSON.parse(fs.readFileSync(ODD_NAMES, 'utf8')).types) {
    for (const member of [type, ...type.inputs, ...type.outputs, ...type.actions]) {
      const name = member.name;
      const quoted = JSON.stringify(name).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
      assert.ok(source.includes(`${quoted}:`) || source.includes(`${name}:`), name);
    }
  }
  if (!requireTsc(t)) return;
  const checked = await tsc(['odd-names.ts', 'odd-types.d.ts'], ['--noEmit']);
  assert.equal(checked.code, 0, checked.stdout + checked.stderr);
});

test('the README typed example passes tsc --strict and runs', async (t) => {
  const readme = fs.readFileSync(path.join(REPO_ROOT, 'clients', 'node', 'README.md'), 'utf8');
  const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]);
  assert.equal(blocks.length, 1);
  const source = blocks[0].replace('./clients/node/src/index.js', 'vmd-client').replace('./gen/vmd-types.js', './vmd-types.js');
  fs.writeFileSync(path.join(directory, 'readme-typed.ts'), source);
  if (!requireTsc(t)) return;
  const checked = await tsc(['readme-typed.ts', 'vmd-types.d.ts'], ['--outDir', 'out']);
  assert.equal(checked.code, 0, checked.stdout + checked.stderr);
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('VMD_')));
  env.VMD_SOCKET = daemon.socketPath;
  const ran = await run(process.execPath, [path.join(directory, 'out', 'readme-typed.js')], { env, cwd: directory });
  assert.equal(ran.code, 0, ran.stderr);
  assert.deepEqual(ran.stdout.trim().split('\n'), ['true', 'demo@example.com', 'demo@example.com']);
});
