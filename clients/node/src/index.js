// vmd-client: talk to vmd, the view-model daemon, over its Unix socket.
// JSON-RPC 2.0 in NDJSON frames (Protocol/PROTOCOL.md). Node 18+, standard library only.

import net from 'node:net';
import os from 'node:os';
import { EventEmitter } from 'node:events';
import { SessionKeeper, admitSeq, noteOverflow } from './session.js';

/** The daemon's default maxFrameBytes: the largest line a client may send. */
export const DEFAULT_MAX_FRAME_BYTES = 1048576;
/** The protocol level this client speaks (daemon.info's `protocol`). */
export const PROTOCOL_LEVEL = 1;
/** Milliseconds a call waits for its reply unless told otherwise. */
export const DEFAULT_TIMEOUT_MS = 10000;
/** sun_path holds 108 bytes on Linux, NUL included. */
export const MAX_SOCKET_PATH_BYTES = 107;

/**
 * The socket-path rule: explicit path > VMD_SOCKET > $XDG_RUNTIME_DIR/vmd.sock
 * (set, not empty, absolute) > /tmp/vmd-$UID/vmd.sock.
 */
export function defaultSocketPath(explicit, env = process.env, uid = os.userInfo().uid) {
  if (explicit) return explicit;
  if (env.VMD_SOCKET) return env.VMD_SOCKET;
  const runtime = env.XDG_RUNTIME_DIR;
  if (runtime && runtime.startsWith('/')) return runtime.replace(/\/+$/, '') + '/vmd.sock';
  return `/tmp/vmd-${uid}/vmd.sock`;
}

/** An error response from vmd: numeric JSON-RPC `code`, `message`, `data`; `errorName` is data.name. */
export class VmdError extends Error {
  constructor(code, message, data = {}) {
    super(message);
    this.name = 'VmdError';
    this.code = code;
    this.data = data && typeof data === 'object' && !Array.isArray(data) ? data : {};
    this.errorName = typeof this.data.name === 'string' ? this.data.name : (CODE_NAMES[code] ?? 'unknown');
  }

  static fromObject(error) {
    if (!error || typeof error !== 'object') {
      return new VmdError(-32603, `malformed error object: ${JSON.stringify(error)}`, { name: 'internalError' });
    }
    const code = Number.isInteger(error.code) ? error.code : -32603;
    const message = typeof error.message === 'string' ? error.message : `error ${code}`;
    return new VmdError(code, message, error.data);
  }
}

/** The connection closed (or could not be opened) while a call or subscription needed it. */
export class ConnectionLostError extends Error {
  constructor(message) { super(message); this.name = 'ConnectionLostError'; }
}

/** No reply, or no notification, arrived within the client-side timeout. */
export class CallTimeoutError extends Error {
  constructor(message) { super(message); this.name = 'CallTimeoutError'; }
}

/** An outgoing message exceeds maxFrameBytes; the daemon would close the connection, so it is not sent. */
export class FrameTooLargeError extends Error {
  constructor(message) { super(message); this.name = 'FrameTooLargeError'; }
}

/** Every error name of the protocol by code (a later revision may add more). */
export const CODE_NAMES = Object.freeze({
  [-32700]: 'parseError', [-32600]: 'invalidRequest', [-32601]: 'methodNotFound',
  [-32602]: 'invalidParams', [-32603]: 'internalError', [-32800]: 'requestCancelled',
  [-31001]: 'unknownType', [-31002]: 'unknownInstance', [-31003]: 'unknownInput',
  [-31004]: 'unknownOutput', [-31005]: 'unknownAction', [-31006]: 'invalidValue',
  [-31007]: 'actionNotEnabled', [-31008]: 'actionFailed', [-31009]: 'actionTimedOut',
  [-31010]: 'limitReached', [-31011]: 'instanceExists', [-31012]: 'unknownSubscription',
  [-31013]: 'notStateOutput', [-31014]: 'shuttingDown', [-31015]: 'permissionDenied',
  [-31016]: 'unknownSession', [-31017]: 'actionSuperseded', [-31018]: 'notRecording',
});

/** A vm.progress's params as given to an execute's onProgress, with `fraction` when the total is known. */
function progressFrom(params) {
  const progress = { request: params.request, instance: params.instance, action: params.action, completed: params.completed };
  if (typeof params.total === 'number') {
    progress.total = params.total;
    if (params.total > 0) progress.fraction = Math.min(1, Math.max(0, params.completed / params.total));
  }
  if (typeof params.message === 'string') progress.message = params.message;
  return progress;
}

/** One NDJSON frame for `message`; throws FrameTooLargeError above `maxFrameBytes`. */
export function encodeFrame(message, maxFrameBytes = DEFAULT_MAX_FRAME_BYTES) {
  const body = Buffer.from(JSON.stringify(message), 'utf8');
  if (body.length > maxFrameBytes) {
    throw new FrameTooLargeError(`message is ${body.length} bytes; the daemon accepts at most ${maxFrameBytes} per frame`);
  }
  return Buffer.concat([body, Buffer.from('\n')]);
}

/**
 * Cuts a byte stream into lines without a length cap (daemon frames are unbounded).
 * Works on bytes, so a UTF-8 character split between chunks is decoded whole.
 */
export class LineSplitter {
  constructor() { this.chunks = []; this.size = 0; }

  /** Feed a Buffer; returns the complete, non-blank lines as strings. */
  feed(chunk) {
    const lines = [];
    let start = 0;
    let newline = chunk.indexOf(10);
    while (newline !== -1) {
      this.chunks.push(chunk.subarray(start, newline));
      const line = Buffer.concat(this.chunks).toString('utf8');
      this.chunks = [];
      this.size = 0;
      if (line.trim() !== '') lines.push(line);
      start = newline + 1;
      newline = chunk.indexOf(10, start);
    }
    if (start < chunk.length) {
      this.chunks.push(chunk.subarray(start));
      this.size += chunk.length - start;
    }
    return lines;
  }

  get pendingBytes() { return this.size; }
}

/**
 * Queue behind an async iterator; ended by end() or fail(). Its events are held until a listener
 * for them exists: values that arrive with the reply that created the stream (a subscription's
 * replayed current state) reach the first `.on(event)` on the next tick instead of being lost.
 * Holding stops for good once the stream is iterated, so an iterating consumer keeps no copies.
 */
class Stream extends EventEmitter {
  constructor(timeoutMs) {
    super();
    this.timeoutMs = timeoutMs;
    this.items = [];
    this.waiters = [];
    this.ended = false;
    this.failure = null;
    this.held = [];            // [event, args] emitted before any listener of that event existed
    this.heard = new Set();    // events that have had a listener: emitted directly from then on
    this.holding = true;
    this.on('newListener', (event) => {
      if (event === 'newListener' || this.heard.has(event)) return;
      this.heard.add(event);
      // After the listener is added (newListener runs before that), ahead of the next socket read.
      process.nextTick(() => this.release(event));
    });
  }

  /** Emits `event` now if someone listens for it, otherwise holds it for its first listener. */
  deliver(event, ...args) {
    if (this.heard.has(event) || !this.holding) this.emit(event, ...args);
    else this.held.push([event, args]);
  }

  release(event) {
    const due = this.held.filter(([name]) => name === event);
    this.held = this.held.filter(([name]) => name !== event);
    for (const [, args] of due) this.emit(event, ...args);
  }

  push(item) {
    if (this.ended) return;
    const waiter = this.waiters.shift();
    if (waiter) waiter.resolve({ value: item, done: false });
    else this.items.push(item);
  }

  finish(failure) {
    if (this.ended) return;
    this.ended = true;
    this.failure = failure ?? null;
    for (const waiter of this.waiters.splice(0)) {
      if (failure) waiter.reject(failure); else waiter.resolve({ value: undefined, done: true });
    }
  }

  /** The next item as `{value, done}`; rejects with CallTimeoutError after `timeoutMs`. */
  next({ timeoutMs = this.timeoutMs } = {}) {
    if (this.holding) { this.holding = false; this.held = []; }
    if (this.items.length > 0) return Promise.resolve({ value: this.items.shift(), done: false });
    if (this.ended) return this.failure ? Promise.reject(this.failure) : Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve, reject) => {
      const waiter = { resolve, reject };
      if (timeoutMs != null) {
        const timer = setTimeout(() => {
          this.waiters.splice(this.waiters.indexOf(waiter), 1);
          reject(new CallTimeoutError(`nothing arrived within ${timeoutMs} ms`));
        }, timeoutMs);
        waiter.resolve = (v) => { clearTimeout(timer); resolve(v); };
        waiter.reject = (e) => { clearTimeout(timer); reject(e); };
      }
      this.waiters.push(waiter);
    });
  }

  /** The next `count` items (fewer only if the stream ends first). */
  async take(count, options) {
    const taken = [];
    while (taken.length < count) {
      const { value, done } = await this.next(options);
      if (done) break;
      taken.push(value);
    }
    return taken;
  }

  [Symbol.asyncIterator]() {
    return { next: () => this.next(), return: async () => ({ value: undefined, done: true }) };
  }
}

/** Why an RFC 6902 patch could not be applied (the message names the operation). */
export class PatchError extends Error {}

function parsePointer(text) {
  if (text === '') return [];
  if (typeof text !== 'string' || !text.startsWith('/')) throw new PatchError(`invalid JSON Pointer ${JSON.stringify(text)}`);
  return text.slice(1).split('/').map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function arrayIndex(token, size, allowEnd) {
  if (allowEnd && token === '-') return size;
  if (!/^(0|[1-9][0-9]*)$/.test(token)) throw new PatchError(`${JSON.stringify(token)} is not an array index`);
  const index = Number(token);
  if (index > size || (index === size && !allowEnd)) throw new PatchError(`index ${index} is out of range (the array has ${size} elements)`);
  return index;
}

const own = (object, key) => Object.prototype.hasOwnProperty.call(object, key);

function valueAt(document, tokens) {
  for (const token of tokens) {
    if (Array.isArray(document)) document = document[arrayIndex(token, document.length, false)];
    else if (document !== null && typeof document === 'object') {
      if (!own(document, token)) throw new PatchError(`no member ${JSON.stringify(token)}`);
      document = document[token];
    } else throw new PatchError(`${JSON.stringify(token)} is inside a value that is neither an object nor an array`);
  }
  return document;
}

// The document with one edit at `tokens`, copying only the containers on the path (the input is
// never changed); returns [document, removed].
function edit(document, tokens, op, value) {
  if (tokens.length === 0) {
    if (op === 'remove') throw new PatchError('cannot remove the whole document');
    return [value, undefined];
  }
  const [head, ...rest] = tokens;
  if (Array.isArray(document)) {
    const copy = document.slice();
    if (rest.length > 0) {
      const index = arrayIndex(head, copy.length, false);
      const [inner, removed] = edit(copy[index], rest, op, value);
      copy[index] = inner;
      return [copy, removed];
    }
    if (op === 'add') { copy.splice(arrayIndex(head, copy.length, true), 0, value); return [copy, undefined]; }
    const index = arrayIndex(head, copy.length, false);
    if (op === 'replace') { copy[index] = value; return [copy, undefined]; }
    return [copy, copy.splice(index, 1)[0]];
  }
  if (document !== null && typeof document === 'object') {
    const copy = { ...document };
    if (rest.length > 0) {
      if (!own(copy, head)) throw new PatchError(`no member ${JSON.stringify(head)}`);
      const [inner, removed] = edit(copy[head], rest, op, value);
      copy[head] = inner;
      return [copy, removed];
    }
    if (op === 'add') { copy[head] = value; return [copy, undefined]; }
    if (!own(copy, head)) throw new PatchError(`no member ${JSON.stringify(head)}`);
    const removed = copy[head];
    if (op === 'replace') copy[head] = value;
    else delete copy[head];
    return [copy, removed];
  }
  throw new PatchError(`${JSON.stringify(head)} is inside a value that is neither an object nor an array`);
}

function jsonEqual(a, b) {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => own(b, k) && jsonEqual(a[k], b[k]));
  }
  return false;
}

/** The result of applying an RFC 6902 patch to `document`, which is left unchanged. */
export function applyPatch(document, patch) {
  patch.forEach((operation, position) => {
    try {
      if (!operation || typeof operation !== 'object') throw new PatchError('not an object');
      const path = parsePointer(operation.path);
      switch (operation.op) {
        case 'add': case 'replace':
          if (!own(operation, 'value')) throw new PatchError('no value');
          [document] = edit(document, path, operation.op, operation.value);
          break;
        case 'remove': [document] = edit(document, path, 'remove'); break;
        case 'move': case 'copy': {
          const from = parsePointer(operation.from);
          let moved;
          if (operation.op === 'move') {
            if (from.length === path.length && from.every((t, i) => t === path[i])) break;
            if (from.length < path.length && from.every((t, i) => t === path[i])) throw new PatchError('cannot move a value into its own child');
            [document, moved] = edit(document, from, 'remove');
          } else moved = valueAt(document, from);
          [document] = edit(document, path, 'add', moved);
          break;
        }
        case 'test':
          if (!jsonEqual(valueAt(document, path), operation.value)) throw new PatchError('test failed');
          break;
        default: throw new PatchError(`unknown op ${JSON.stringify(operation.op)}`);
      }
    } catch (error) {
      if (error instanceof PatchError) throw new PatchError(`operation ${position} (${operation && operation.op}): ${error.message}`);
      throw error;
    }
  });
  return document;
}

/**
 * A subscription. `for await (const out of sub)` yields `{subscription, instance, output, value,
 * seq, replay, patch?}` until vm.closed (`closedReason`) or unsubscribe; throws ConnectionLostError when the
 * connection drops. Events: 'output', 'overflow' ({from, to}), 'closed' (reason), 'end'.
 * Values lost to overflow are recorded in `lost` as [from, to] pairs. With `reconnect: true` it
 * goes on across a daemon restart when its instance came back (a durable one): the instance's
 * current values follow (replays, seq from 1 again, a new `id`); otherwise it ends with
 * `closedReason` 'daemonRestarted' (src/session.js).
 */
export class Subscription extends Stream {
  constructor(id, instance, timeoutMs) {
    super(timeoutMs);
    this.id = id;
    this.instance = instance;
    this.closedReason = null;
    this.lost = [];
    // The last seq delivered: a resume drops a seq seen before and reports a gap (session.js).
    this.lastSeq = 0;
    // Per output, the value delivered last: what the next patch applies to.
    this.lastValues = new Map();
    // What it watches ({outputs?, patches?}), to subscribe again after a daemon restart.
    this.follow = null;
    // Known durable (vm.create answered durable): a 'shutdown' close waits for the restart.
    this.durable = false;
    // The daemon closed it with 'shutdown' while a session holds it: the reconnect decides.
    this.heldAtShutdown = false;
  }

  /** Opened again under `id` after a daemon restart: seqs start again at 1. */
  reopened(id) {
    this.id = id;
    this.lastSeq = 0;
    this.lastValues.clear();
    this.heldAtShutdown = false;
  }

  /** Ends with vm.closed's `reason`. */
  close(reason) {
    this.closedReason = reason;
    this.finish();
    this.deliver('closed', reason);
    this.deliver('end');
  }
}

/** A monitor (daemon.monitor): async iterator and 'message' events of daemon.message params. */
export class Monitor extends Stream {
  constructor(id, timeoutMs) { super(timeoutMs); this.id = id; }
}

/**
 * A vmd client over one connection. Create with `await connect(options)`.
 * Events: 'notification' (every notification: {method, params}), 'vm.error' (params),
 * 'close' (error). With `reconnect: true` (a resumable session, src/session.js): 'disconnected'
 * (reason), then 'resumed' ({session, lost: [{subscription, fromSeq, toSeq}]}),
 * 'daemonRestarted' ({bootId}) or 'sessionExpired' ({session}), then 'reconnected' ({bootId}).
 */
export class Client extends EventEmitter {
  constructor(socket, { path, timeoutMs = DEFAULT_TIMEOUT_MS, maxFrameBytes = DEFAULT_MAX_FRAME_BYTES } = {}) {
    super();
    this.path = path;
    this.timeoutMs = timeoutMs;
    this.maxFrameBytes = maxFrameBytes;
    this.socket = socket;
    this.nextId = 0;
    this.pending = new Map();
    this.subscriptions = new Map();
    this.monitors = new Map();
    this.closed = null;
    this.closedByUser = false;
    this.keeper = null;       // the resumable session (src/session.js), with reconnect: true
    this.backlog = [];        // frames of calls made while a session resumes
    this.attach(socket);
  }

  /** Makes `socket` the connection: reads it, and hears when it ends. */
  attach(socket) {
    this.socket = socket;
    const splitter = new LineSplitter();
    socket.on('data', (chunk) => {
      for (const line of splitter.feed(chunk)) {
        let message;
        try { message = JSON.parse(line); } catch { continue; }
        this.dispatch(message);
      }
    });
    const ended = (error) => { if (this.socket === socket) this.lost(error); };
    socket.on('error', (error) => ended(new ConnectionLostError(`connection to vmd failed: ${error.message}`)));
    socket.on('close', () => ended(new ConnectionLostError('vmd closed the connection')));
  }

  /** The socket ended: a resumable session keeps everything for its resume; else all fail. */
  lost(error) {
    if (this.keeper?.onLost(error)) return;
    this.shut(error);
  }

  lostError(message) { return new ConnectionLostError(message); }

  get connected() { return this.closed === null && !this.keeper?.resuming; }

  /** The id of the resumable session ('s3'), or null: reconnect is off, or the daemon has none. */
  get session() { return this.keeper?.token ? this.keeper.session : null; }

  /** Drops the socket as a network failure would (no session.close); for tests. */
  _dropConnection() { this.socket.destroy(); }

  dispatch(message) {
    if (Array.isArray(message)) { for (const item of message) this.dispatch(item); return; }
    if (!message || typeof message !== 'object') return;
    if (!('method' in message)) {
      const call = this.pending.get(message.id);
      if (!call) { this.emit('response', message); return; }
      this.pending.delete(message.id);
      clearTimeout(call.timer);
      if ('error' in message) call.reject(VmdError.fromObject(message.error));
      else {
        // Runs before the next line is parsed, so a new subscription is registered before its first vm.output.
        try { call.resolve(call.onResult ? call.onResult(message.result) : message.result); } catch (e) { call.reject(e); }
      }
      return;
    }
    const params = message.params && typeof message.params === 'object' ? message.params : {};
    if (message.method === 'vm.output') {
      const sub = this.subscriptions.get(params.subscription);
      // After a gap in seq, patches wait for a whole value (PROTOCOL.md section 18).
      const gap = sub && Number.isInteger(params.seq) && sub.lastSeq > 0 && params.seq > sub.lastSeq + 1;
      if (sub && admitSeq(sub, params.seq)) {
        if (gap) sub.lastValues.clear();
        const output = { subscription: params.subscription, instance: params.instance, output: params.output,
          value: params.value, seq: params.seq, replay: params.replay === true };
        // On a patches subscription a value may come as an RFC 6902 patch: hand over the whole
        // value anyway, the patch beside it. A patch with no value to apply to (after a gap) or
        // that does not apply is dropped: a value the instance never held is never delivered.
        let applies = true;
        if (!own(params, 'value') && Array.isArray(params.patch)) {
          output.patch = params.patch;
          applies = sub.lastValues.has(params.output);
          try {
            if (applies) output.value = applyPatch(sub.lastValues.get(params.output), params.patch);
          } catch (error) {
            if (!(error instanceof PatchError)) throw error;
            applies = false;
          }
        }
        if (applies) {
          sub.lastValues.set(params.output, output.value);
          sub.push(output);
          sub.deliver('output', output);
        } else {
          sub.lastValues.delete(params.output);
        }
      }
    } else if (message.method === 'vm.overflow') {
      const sub = this.subscriptions.get(params.subscription);
      // A range already counted is skipped: after a resume, a gap before the first queued value
      // shows the seqs the dropped connection took, then vm.overflow reports them (section 18).
      const lost = params.lost;
      const counted = sub && lost && Number.isInteger(lost.to) && lost.to <= sub.lastSeq
        && sub.lost.some(([from, to]) => from <= lost.from && lost.to <= to);
      if (sub && lost && !counted) {
        const ahead = Number.isInteger(lost.from) && Number.isInteger(lost.to) && lost.to > sub.lastSeq;
        // Values after the last one seen were lost: no value held is a base for a patch.
        if (ahead) sub.lastValues.clear();
        sub.lost.push([ahead ? Math.max(lost.from, sub.lastSeq + 1) : lost.from, lost.to]);
        noteOverflow(sub, params.lost);
        sub.deliver('overflow', params.lost);
      }
    } else if (message.method === 'vm.closed') {
      const sub = this.subscriptions.get(params.subscription);
      if (sub && params.reason === 'shutdown' && this.keeper?.token && sub.durable) {
        sub.heldAtShutdown = true;  // kept for the reconnect, which shows whether it came back
      } else if (sub) {
        this.subscriptions.delete(params.subscription);
        sub.close(params.reason ?? 'other');
      }
    } else if (message.method === 'daemon.message') {
      const monitor = this.monitors.get(params.monitor);
      if (monitor) { monitor.push(params); monitor.deliver('message', params); }
    } else if (message.method === 'vm.error') {
      this.emit('vm.error', params);
    } else if (message.method === 'vm.progress') {
      // Every vm.progress of a call comes before its reply (PROTOCOL.md O12): the call is still pending.
      const call = this.pending.get(params.request);
      if (call?.onProgress) {
        try { call.onProgress(progressFrom(params)); } catch { /* the callback's bug must not stop the reader */ }
      }
    }
    this.emit('notification', { method: message.method, params });
  }

  shut(error) {
    if (this.closed) return;
    this.closed = error;
    for (const call of this.pending.values()) { clearTimeout(call.timer); call.reject(error); }
    this.pending.clear();
    for (const stream of [...this.subscriptions.values(), ...this.monitors.values()]) {
      if (stream.heldAtShutdown) { stream.close('shutdown'); continue; }  // as the daemon said
      stream.finish(error);
      stream.deliver('end', error);
    }
    this.subscriptions.clear();
    this.monitors.clear();
    this.emit('close', error);
  }

  write(message, { immediate = false } = {}) {
    const frame = encodeFrame(message, this.maxFrameBytes);
    if (this.closed) throw new ConnectionLostError(`the connection to vmd is closed: ${this.closed.message}`);
    if (this.keeper?.resuming && !immediate) this.backlog.push(frame);  // sent once the resume is over
    else this.socket.write(frame);
  }

  /** Sends what was written while a session resumed. */
  flushBacklog() {
    const frames = this.backlog;
    this.backlog = [];
    for (const frame of frames) this.socket.write(frame);
  }

  /** A request written at once, even while a session resumes (its own handshake). */
  requestNow(method, params, options = {}) { return this.request(method, params, { ...options, immediate: true }); }

  /**
   * Send a request now. Returns `{id, result, cancel}`: `result` is a Promise of the reply
   * (rejecting with VmdError, CallTimeoutError or ConnectionLostError), `cancel()` sends $/cancelRequest.
   */
  request(method, params, { timeoutMs = this.timeoutMs, onResult, onProgress, immediate = false } = {}) {
    const id = ++this.nextId;
    const message = { jsonrpc: '2.0', id, method };
    if (params !== undefined) message.params = params;
    const cancel = () => { try { this.notify('$/cancelRequest', { id }); } catch { /* connection gone */ } };
    const result = new Promise((resolve, reject) => {
      const call = { resolve, reject, onResult, onProgress, timer: null };
      if (timeoutMs != null) {
        call.timer = setTimeout(() => {
          this.pending.delete(id);
          if (method === 'vm.execute') cancel();
          reject(new CallTimeoutError(`no reply to ${method} (id ${id}) within ${timeoutMs} ms`));
        }, timeoutMs);
      }
      this.pending.set(id, call);
      try { this.write(message, { immediate }); } catch (error) { this.pending.delete(id); clearTimeout(call.timer); reject(error); }
    });
    return { id, result, cancel };
  }

  /** Send a request and resolve with its result. */
  call(method, params, options) { return this.request(method, params, options).result; }

  /** Send a notification (no reply). */
  notify(method, params) {
    const message = { jsonrpc: '2.0', method };
    if (params !== undefined) message.params = params;
    this.write(message);
  }

  /** Close the connection; pending calls reject with ConnectionLostError. A resumable session is
   * closed first (session.close), so the daemon releases it at once. */
  async close() {
    if (this.keeper) await this.keeper.close();
    this.closedByUser = true;
    this.shut(new ConnectionLostError('the client closed the connection'));
    return new Promise((resolve) => {
      if (this.socket.destroyed) { resolve(); return; }
      this.socket.once('close', () => resolve());
      this.socket.end();
      this.socket.destroy();
    });
  }

  // ---------------------------------------------------------------- daemon.*

  info() { return this.call('daemon.info'); }
  shutdown() { return this.call('daemon.shutdown'); }
  discover() { return this.call('rpc.discover'); }

  monitor({ timeoutMs = null } = {}) {
    return this.call('daemon.monitor', {}, { onResult: (result) => {
      const monitor = new Monitor(result.monitor, timeoutMs);
      this.monitors.set(monitor.id, monitor);
      return monitor;
    } });
  }

  unmonitor(monitor) {
    const id = typeof monitor === 'string' ? monitor : monitor.id;
    return this.call('daemon.unmonitor', { monitor: id }, { onResult: () => {
      const stream = this.monitors.get(id);
      this.monitors.delete(id);
      if (stream) { stream.finish(); stream.deliver('end'); }
    } });
  }

  // ---------------------------------------------------------------- vm.*

  async types(type) {
    return (await this.call('vm.types', type === undefined ? {} : { type })).types;
  }

  /**
   * vm.create. `subscribe`: true (every output), an array of output names, or {outputs, replay, patches};
   * `durable`: keep the instance across daemon restarts (daemon scope only);
   * resolves {instance, type, scope, subscription?, durable?} where subscription is a Subscription.
   */
  create(type, { id, args, scope, subscribe, durable = false, subscriptionTimeoutMs = null, record = false } = {}) {
    const params = { type };
    if (id !== undefined) params.id = id;
    if (args !== undefined) params.args = args;
    if (scope !== undefined) params.scope = scope;
    if (durable) params.durable = true;
    if (record) params.record = true;
    if (subscribe === true) params.subscribe = {};
    else if (Array.isArray(subscribe)) params.subscribe = { outputs: subscribe };
    else if (subscribe && typeof subscribe === 'object') params.subscribe = subscribe;
    return this.call('vm.create', params, { onResult: (result) => {
      const created = { instance: result.instance, type: result.type, scope: result.scope };
      if (result.durable === true) created.durable = true;
      if (result.subscription !== undefined) {
        created.subscription = new Subscription(result.subscription, result.instance, subscriptionTimeoutMs);
        created.subscription.follow = { ...params.subscribe };
        created.subscription.durable = result.durable === true;
        this.subscriptions.set(result.subscription, created.subscription);
      }
      return created;
    } });
  }

  async destroy(instance) { await this.call('vm.destroy', { instance }); }

  async list() { return (await this.call('vm.list')).instances; }

  /** vm.send; `value` undefined means the input's default. `{notify: true}` is fire-and-forget (failures come as 'vm.error'). */
  async send(instance, input, value, { notify = false } = {}) {
    const params = { instance, input };
    if (value !== undefined) params.value = value;
    if (notify) this.notify('vm.send', params);
    else await this.call('vm.send', params);
  }

  /**
   * Start vm.execute; returns {id, result, cancel} where result resolves with the action's value.
   * `onProgress({request, instance, action, completed, total?, message?, fraction?})` asks for the
   * action's progress and is called with each report, all before `result` settles;
   * `resetTimeoutOnProgress` restarts `timeoutMs` at each progress.
   */
  startExecute(instance, action, value, { timeoutMs, clientTimeoutMs, onProgress, resetTimeoutOnProgress } = {}) {
    const params = { instance, action };
    if (value !== undefined) params.value = value;
    if (timeoutMs !== undefined) params.timeoutMs = timeoutMs;
    if (onProgress) params.progress = true;
    if (resetTimeoutOnProgress) params.resetTimeoutOnProgress = true;
    let wait = clientTimeoutMs;
    if (wait === undefined) {
      wait = this.timeoutMs;
      if (wait != null && timeoutMs !== undefined) wait = Math.max(wait, timeoutMs + 5000);
    }
    return this.request('vm.execute', params, { timeoutMs: wait, onResult: (result) => result.value, onProgress });
  }

  /** vm.execute: resolves with the action's value. `timeoutMs` is the daemon's, `clientTimeoutMs` the wait here. */
  execute(instance, action, value, options) { return this.startExecute(instance, action, value, options).result; }

  /** $/cancelRequest for a pending vm.execute of this connection. */
  cancel(id) { this.notify('$/cancelRequest', { id }); }

  async get(instance, output) { return (await this.call('vm.get', { instance, output })).value; }

  /** vm.tape: the tape so far of an instance created with record: true, one object per line (the header first). */
  async tape(instance) { return (await this.call('vm.tape', { instance })).tape; }

  /**
   * vm.subscribe: resolves a Subscription (outputs absent: every output; replay defaults to true;
   * patches: the daemon may send RFC 6902 patches, which the subscription applies).
   */
  subscribe(instance, { outputs, replay, patches, timeoutMs = null } = {}) {
    const params = { instance };
    if (outputs !== undefined) params.outputs = outputs;
    if (replay !== undefined) params.replay = replay;
    if (patches !== undefined) params.patches = patches;
    return this.call('vm.subscribe', params, { onResult: (result) => {
      const sub = new Subscription(result.subscription, instance, timeoutMs);
      const { instance: _, ...follow } = params;
      sub.follow = follow;
      this.subscriptions.set(sub.id, sub);
      return sub;
    } });
  }

  async unsubscribe(subscription) {
    const id = typeof subscription === 'string' ? subscription : subscription.id;
    await this.call('vm.unsubscribe', { subscription: id }, { onResult: () => {
      const sub = this.subscriptions.get(id);
      this.subscriptions.delete(id);
      if (sub) { sub.finish(); sub.deliver('end'); }
    } });
  }
}

/**
 * Connect to vmd. Options: path (else the socket-path rule), timeoutMs (per call, default 10 s;
 * null waits forever), connectTimeoutMs (default 5 s), maxFrameBytes, checkProtocol (default true:
 * fails unless daemon.info's protocol is 1), reconnect (default false: a resumable session,
 * resumed after a drop; src/session.js), reconnectDelayMs (the wait before the first attempt).
 */
export async function connect({ path, timeoutMs = DEFAULT_TIMEOUT_MS, connectTimeoutMs = 5000,
  maxFrameBytes = DEFAULT_MAX_FRAME_BYTES, checkProtocol = true, reconnect = false, reconnectDelayMs = 50 } = {}) {
  const socketPath = defaultSocketPath(path);
  if (Buffer.byteLength(socketPath) > MAX_SOCKET_PATH_BYTES) {
    throw new RangeError(`socket path is ${Buffer.byteLength(socketPath)} bytes, more than the ${MAX_SOCKET_PATH_BYTES} a Unix socket address holds: ${socketPath}`);
  }
  const socket = await new Promise((resolve, reject) => {
    const s = net.createConnection({ path: socketPath });
    const timer = setTimeout(() => { s.destroy(); reject(new ConnectionLostError(`cannot connect to vmd at ${socketPath}: timed out`)); }, connectTimeoutMs);
    s.once('connect', () => { clearTimeout(timer); s.removeAllListeners('error'); resolve(s); });
    s.once('error', (error) => { clearTimeout(timer); reject(new ConnectionLostError(`cannot connect to vmd at ${socketPath}: ${error.message}`)); });
  });
  const client = new Client(socket, { path: socketPath, timeoutMs, maxFrameBytes });
  if (checkProtocol || reconnect) {
    let info;
    try { info = await client.info(); } catch (error) { await client.close(); throw error; }
    if (checkProtocol && info.protocol !== PROTOCOL_LEVEL) {
      await client.close();
      throw new Error(`vmd at ${socketPath} speaks protocol ${info.protocol}; this client speaks ${PROTOCOL_LEVEL}`);
    }
    if (reconnect) {
      client.keeper = new SessionKeeper(client, { reconnectDelayMs, connectTimeoutMs });
      await client.keeper.open(info);
    }
  }
  return client;
}

// Tapes (PROTOCOL.md, section 17): replay a recorded session as a test.
export { replayTape, TapeMismatchError, BadTapeError, TAPE_VERSION, TAPE_VERSIONS } from './tapes.js';

// Typed handles for declarations written by `vmctl gen typescript` (README: typed clients).
export { typed } from './typed.js';
