// Testing helper (not part of the client; uses child_process): run the real vmd on a private temp socket, ready when a connection succeeds.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url)); // clients/node/src
export const REPO_ROOT = path.resolve(here, '..', '..', '..');
export const VMD_BIN = process.env.VMD_BIN || path.join(REPO_ROOT, '.build', 'debug', 'vmd');
/** The built-in Login's demo account (documented by the catalog). */
export const DEMO = { email: 'demo@example.com', password: 'secret' };

function tryConnect(socketPath) {
  return new Promise((resolve) => {
    const socket = net.createConnection({ path: socketPath });
    socket.once('connect', () => { socket.destroy(); resolve(true); });
    socket.once('error', () => resolve(false));
  });
}

/**
 * Start vmd on /tmp/vmdt-XXXX/vmd.sock with `args`; resolves {socketPath, stop(), restart(),
 * process, log()}. restart() stops it and starts it again on the same socket (a new boot).
 */
export async function startDaemon({ deadlineMs = 20000, args = [] } = {}) {
  if (!fs.existsSync(VMD_BIN)) throw new Error(`vmd binary not found at ${VMD_BIN}: run \`swift build --product vmd\` or set VMD_BIN`);
  const directory = fs.mkdtempSync('/tmp/vmdt-'); // 0700, ours: the daemon's directory check wants that
  const socketPath = path.join(directory, 'vmd.sock');
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('VMD_')));
  env.XDG_CONFIG_HOME = path.join(directory, 'config');
  env.XDG_STATE_HOME = path.join(directory, 'xdg-state');
  delete env.NOTIFY_SOCKET; delete env.LISTEN_FDS; delete env.LISTEN_PID;
  const logPath = path.join(directory, 'vmd.log');
  const log = () => { try { return fs.readFileSync(logPath, 'utf8'); } catch { return ''; } };
  let child;
  let exited;
  let exit;
  const halt = async () => {
    if (exited === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10000);
      await exit;
      clearTimeout(timer);
    }
    return exited;
  };
  const stop = async () => {
    const ended = await halt();
    fs.rmSync(directory, { recursive: true, force: true });
    return ended;
  };
  const launch = async () => {
    const logFd = fs.openSync(logPath, 'a');
    child = spawn(VMD_BIN, ['--socket', socketPath, '--state-dir', path.join(directory, 'state'), ...args],
      { env, stdio: ['ignore', logFd, logFd] });
    fs.closeSync(logFd);
    exited = null;
    exit = new Promise((resolve) => child.once('exit', (code, signal) => { exited = { code, signal }; resolve(exited); }));
    const deadline = Date.now() + deadlineMs;
    for (;;) {
      if (exited !== null) throw new Error(`vmd exited (${JSON.stringify(exited)}) before listening:\n${log()}`);
      if (await tryConnect(socketPath)) break;
      if (Date.now() > deadline) { await stop(); throw new Error(`vmd did not listen on ${socketPath} within ${deadlineMs} ms:\n${log()}`); }
      // Not a guess at the start-up time: the wait ends early when the process exits.
      await Promise.race([exit, new Promise((resolve) => setTimeout(resolve, 20))]);
    }
  };
  await launch();
  const daemon = { socketPath, stop, log, restart: async () => { await halt(); await launch(); daemon.process = child; daemon.exit = exit; } };
  daemon.process = child;
  daemon.exit = exit;
  return daemon;
}
