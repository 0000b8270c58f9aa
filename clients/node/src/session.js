// Sessions that survive a reconnect (Protocol/PROTOCOL.md, section 18), for the Node client.
//
// With connect({reconnect: true}) the client opens a resumable session (session.open). When
// the daemon's side of the connection ends, it reconnects within the session's grace and sends
// session.resume as the first request of the new connection; pending calls, subscriptions
// and monitors go on (the same objects). Calls made meanwhile wait and are sent once the
// handshake is over. A refused resume (unknownSession) ends every subscription with reason
// 'sessionExpired', and the client goes on with a fresh session. When daemon.info answers
// another bootId the daemon restarted: 'daemonRestarted', then each subscription is opened
// again on its instance (vm.subscribe with replay); where the instance came back (a durable
// one) the same Subscription goes on with its current values, where it did not it ends with
// reason 'daemonRestarted' (PROTOCOL.md, section 18, "After a restart").
import net from 'node:net';

/**
 * Whether a vm.output with `seq` goes to `sub`: false for a seq already delivered (a duplicate
 * across a resume); a gap (bytes written to a dropped connection and never read) is recorded in
 * `sub.lost` and announced as an 'overflow' first.
 */
export function admitSeq(sub, seq) {
  if (!Number.isInteger(seq)) return true;
  if (seq <= sub.lastSeq) return false;
  if (sub.lastSeq > 0 && seq > sub.lastSeq + 1) {
    const range = [sub.lastSeq + 1, seq - 1];
    sub.lost.push(range);
    sub.deliver('overflow', { from: range[0], to: range[1] });
  }
  sub.lastSeq = seq;
  return true;
}

/** Notes a vm.overflow's range as the last seq a subscription accounts for. */
export function noteOverflow(sub, lost) {
  if (Number.isInteger(lost.to) && lost.to > sub.lastSeq) sub.lastSeq = lost.to;
}

/** The resumable session of one Client, and the resumes after drops. */
export class SessionKeeper {
  constructor(client, { reconnectDelayMs = 50, connectTimeoutMs = 5000 } = {}) {
    this.client = client;
    this.reconnectDelayMs = reconnectDelayMs;
    this.connectTimeoutMs = connectTimeoutMs;
    this.token = null;
    this.session = null;
    this.bootId = null;
    this.graceMs = 0;
    this.resuming = false;
  }

  /** session.open on the current connection; a daemon without sessions leaves none. */
  async open(info) {
    if (info && typeof info.bootId === 'string') this.bootId = info.bootId;
    try {
      const opened = await this.client.requestNow('session.open', {}).result;
      if (Number.isInteger(opened?.graceMs) && opened.graceMs > 0 && typeof opened.token === 'string') {
        this.token = opened.token;
        this.session = opened.session ?? null;
        this.graceMs = opened.graceMs;
      } else {
        this.token = null;
      }
    } catch {
      this.token = null;
    }
  }

  /** session.close before the client closes, so the daemon releases the session at once. */
  async close() {
    if (this.token === null || this.resuming || this.client.closed) return;
    this.token = null;
    try { await this.client.requestNow('session.close', {}, { timeoutMs: 2000 }).result; } catch { /* closing anyway */ }
  }

  /** Called when the current socket ends. True: calls and streams stay for the resume. */
  onLost(error) {
    if (this.token === null || this.client.closedByUser) return false;
    if (this.resuming) {
      this.handshakeFailed?.(error);
      return true;
    }
    this.resuming = true;
    this.client.emit('disconnected', error.message);
    this.resume(error).catch(() => {});
    return true;
  }

  async resume(error) {
    const client = this.client;
    const deadline = Date.now() + this.graceMs;
    const heldBelow = client.nextId + 1;
    const marks = new Map([...client.subscriptions].map(([id, sub]) => [id, sub.lost.length]));
    let pause = Math.max(this.reconnectDelayMs, 10);
    await sleep(this.reconnectDelayMs);
    for (;;) {
      if (client.closedByUser) { this.resuming = false; return; }
      let socket;
      try {
        socket = await openSocket(client.path, this.connectTimeoutMs);
      } catch {
        if (Date.now() >= deadline) {
          this.token = null;
          this.resuming = false;
          client.shut(error);
          return;
        }
        await sleep(pause);
        pause = Math.min(pause * 2, 1000);
        continue;
      }
      client.attach(socket);
      // The last seq each subscription got (0: none): the daemon reports what the dropped
      // connection took with it and replays the newest state values (PROTOCOL.md, section 18).
      const received = Object.fromEntries([...client.subscriptions].map(([id, sub]) => [id, sub.lastSeq]));
      let resumed;
      try {
        // The first request of the new connection (PROTOCOL.md, section 18).
        resumed = await this.handshake('session.resume', { token: this.token, received });
      } catch (failure) {
        if (failure?.name === 'VmdError') { await this.refused(heldBelow); return; }
        continue;  // this connection dropped too: try another
      }
      if (typeof resumed?.session === 'string') this.session = resumed.session;
      const stillRunning = new Set(Array.isArray(resumed?.pending) ? resumed.pending : []);
      let info;
      try {
        // Its reply comes after everything the daemon queued while detached.
        info = await this.handshake('daemon.info');
      } catch {
        continue;
      }
      const lostCall = new Error('the request was lost with the connection');
      lostCall.name = 'ConnectionLostError';
      for (const [id, call] of [...client.pending]) {
        if (id < heldBelow && !stillRunning.has(id)) {
          client.pending.delete(id);
          clearTimeout(call.timer);
          call.reject(client.lostError(lostCall.message));
        }
      }
      const lost = [];
      for (const [id, mark] of marks) {
        const sub = client.subscriptions.get(id);
        for (const [fromSeq, toSeq] of sub ? sub.lost.slice(mark) : []) lost.push({ subscription: id, fromSeq, toSeq });
      }
      for (const [id, sub] of [...client.subscriptions]) {
        // Resumed after all: a subscription held at a shutdown close ends as the daemon said.
        if (sub.heldAtShutdown) { client.subscriptions.delete(id); sub.close('shutdown'); }
      }
      this.settle();
      client.emit('resumed', { session: this.session, lost });
      client.emit('reconnected', { bootId: info?.bootId ?? null });
      return;
    }
  }

  /** session.resume was refused: a restart or an expiry ends what the session held. */
  async refused(heldBelow) {
    const client = this.client;
    let info = null;
    try { info = await this.handshake('daemon.info'); } catch { /* told as an expiry */ }
    const bootId = typeof info?.bootId === 'string' ? info.bootId : null;
    const restarted = bootId !== null && this.bootId !== null && bootId !== this.bootId;
    const reason = restarted ? 'daemonRestarted' : 'sessionExpired';
    const expired = this.session;
    this.token = null;
    this.session = null;
    const error = client.lostError(restarted ? 'the daemon restarted' : 'the session expired');
    for (const [id, call] of [...client.pending]) {
      if (id < heldBelow) { client.pending.delete(id); clearTimeout(call.timer); call.reject(error); }
    }
    const following = [];
    for (const sub of client.subscriptions.values()) {
      if (restarted && sub.follow) following.push(sub);  // opened again below, where its instance came back
      else sub.close(sub.heldAtShutdown ? 'shutdown' : reason);
    }
    for (const monitor of client.monitors.values()) { monitor.finish(error); monitor.deliver('end', error); }
    client.subscriptions.clear();
    client.monitors.clear();
    if (restarted) client.emit('daemonRestarted', { bootId });
    else client.emit('sessionExpired', { session: expired });
    await this.open(info);
    await this.resubscribe(following);
    this.settle();
    client.emit('reconnected', { bootId });
  }

  /**
   * vm.subscribe again for each subscription of the restarted daemon: it goes on with its
   * instance's current values (registered as the reply is read, before they arrive), or ends
   * with reason 'daemonRestarted' when the instance did not come back.
   */
  async resubscribe(following) {
    const client = this.client;
    for (const sub of following) {
      const params = { ...sub.follow, instance: sub.instance, replay: true };
      try {
        await client.requestNow('vm.subscribe', params, { onResult: (result) => {
          sub.reopened(result.subscription);
          client.subscriptions.set(sub.id, sub);
        } }).result;
      } catch {
        client.subscriptions.delete(sub.id);
        sub.close('daemonRestarted');
      }
    }
  }

  /** A handshake request, failed at once if its connection drops. */
  handshake(method, params) {
    const call = this.client.requestNow(method, params);
    return new Promise((resolve, reject) => {
      this.handshakeFailed = reject;
      call.result.then(resolve, reject);
    }).finally(() => { this.handshakeFailed = null; });
  }

  /** The handshake is over: calls made meanwhile go out now. */
  settle() {
    this.resuming = false;
    this.client.flushBacklog();
  }
}

function sleep(ms) { return new Promise((resolve) => setTimeout(resolve, ms)); }

function openSocket(path, timeoutMs) {
  return new Promise((resolve, reject) => {
    const socket = net.createConnection({ path });
    const timer = setTimeout(() => { socket.destroy(); reject(new Error('timed out')); }, timeoutMs);
    socket.once('connect', () => { clearTimeout(timer); socket.removeAllListeners('error'); resolve(socket); });
    socket.once('error', (error) => { clearTimeout(timer); reject(error); });
  });
}
