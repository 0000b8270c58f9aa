// Type declarations for vmd-client (src/index.js).
import { EventEmitter } from 'node:events';

/** One vm.progress of an execute: how far the action has come (all arrive before its result). */
export interface Progress {
  request: number | string;
  instance: string;
  action: string;
  completed: number;
  total?: number;
  message?: string;
  /** completed / total between 0 and 1, when the total is known and not zero. */
  fraction?: number;
}

/** Options of execute and startExecute. */
export interface ExecuteOptions {
  /** The daemon's timeout (actionTimedOut). */
  timeoutMs?: number;
  /** The wait here; null waits for ever. */
  clientTimeoutMs?: number | null;
  /** Asks for the action's progress; called with each report before the result. */
  onProgress?: (progress: Progress) => void;
  /** Restart timeoutMs at each progress the action reports. */
  resetTimeoutOnProgress?: boolean;
}

export const DEFAULT_MAX_FRAME_BYTES: number;
export const PROTOCOL_LEVEL: number;
export const DEFAULT_TIMEOUT_MS: number;
export const MAX_SOCKET_PATH_BYTES: number;
export const CODE_NAMES: Readonly<Record<number, string>>;

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export function defaultSocketPath(explicit?: string, env?: Record<string, string | undefined>, uid?: number): string;
export function encodeFrame(message: unknown, maxFrameBytes?: number): Buffer;

export class LineSplitter {
  feed(chunk: Buffer): string[];
  readonly pendingBytes: number;
}

export class VmdError extends Error {
  code: number;
  data: { name?: string; [key: string]: unknown };
  errorName: string;
  constructor(code: number, message: string, data?: object);
  static fromObject(error: unknown): VmdError;
}
export class ConnectionLostError extends Error {}
export class CallTimeoutError extends Error {}
export class FrameTooLargeError extends Error {}

export interface Output {
  subscription: string; instance: string; output: string; value: Json; seq: number; replay: boolean;
  /** The RFC 6902 patch the daemon sent instead of the value (patches subscriptions only). */
  patch?: Json[];
}
export class PatchError extends Error {}
/** The result of applying an RFC 6902 patch to `document`, which is left unchanged. */
export function applyPatch(document: Json, patch: Json[]): Json;
export interface MonitorMessage {
  monitor: string; seq: number; direction: 'in' | 'out' | string; connection: number; message: Json;
}

/**
 * Events ('output', 'message', 'overflow', 'closed', 'end') are held until the first listener
 * for them is attached and then delivered on the next tick, so nothing sent with the reply that
 * created the stream is lost; iterating the stream instead stops the holding.
 */
declare class Stream<T> extends EventEmitter implements AsyncIterable<T> {
  timeoutMs: number | null;
  readonly ended: boolean;
  next(options?: { timeoutMs?: number | null }): Promise<IteratorResult<T, undefined>>;
  take(count: number, options?: { timeoutMs?: number | null }): Promise<T[]>;
  [Symbol.asyncIterator](): AsyncIterator<T>;
}

/**
 * With `reconnect: true` a subscription goes on across a daemon restart when its instance came
 * back (a durable one): its current values follow (replays, seq from 1, a new `id`); otherwise it
 * ends with `closedReason` 'daemonRestarted'.
 */
export class Subscription extends Stream<Output> {
  /** The daemon's id for it (a new one after a daemon restart). */
  id: string;
  instance: string;
  closedReason: string | null;
  lost: Array<[number, number]>;
}
export class Monitor extends Stream<MonitorMessage> { id: string; }

export interface PendingCall<T = Json> { id: number; result: Promise<T>; cancel(): void; }

export interface Created {
  instance: string; type: string; scope: 'daemon' | 'connection' | string; subscription?: Subscription;
  /** true when created durable: kept, with what it saves, across daemon restarts. */
  durable?: true;
}

/** A range of seqs a resume found lost (the 'resumed' event). */
export interface LostRange { subscription: string; fromSeq: number; toSeq: number; }

/**
 * Events: 'notification', 'vm.error', 'close'; with `reconnect: true`: 'disconnected' (reason),
 * then 'resumed' ({session, lost}), 'daemonRestarted' ({bootId}) or 'sessionExpired' ({session}),
 * then 'reconnected' ({bootId}). After 'daemonRestarted' each subscription is opened again on its
 * instance: it goes on where the instance came back (a durable one) and ends otherwise.
 */
export class Client extends EventEmitter {
  path: string;
  timeoutMs: number | null;
  readonly connected: boolean;
  /** The id of the resumable session ('s3'), or null: reconnect is off, or the daemon has none. */
  readonly session: string | null;
  on(event: 'resumed', listener: (event: { session: string; lost: LostRange[] }) => void): this;
  on(event: 'daemonRestarted', listener: (event: { bootId: string | null }) => void): this;
  on(event: 'sessionExpired', listener: (event: { session: string | null }) => void): this;
  on(event: 'reconnected', listener: (event: { bootId: string | null }) => void): this;
  on(event: 'disconnected', listener: (reason: string) => void): this;
  on(event: string | symbol, listener: (...args: any[]) => void): this;
  request<T = Json>(method: string, params?: object, options?: { timeoutMs?: number | null }): PendingCall<T>;
  call<T = any>(method: string, params?: object, options?: { timeoutMs?: number | null }): Promise<T>;
  notify(method: string, params?: object): void;
  close(): Promise<void>;
  info(): Promise<any>;
  shutdown(): Promise<{ stopping: true }>;
  discover(): Promise<any>;
  monitor(options?: { timeoutMs?: number | null }): Promise<Monitor>;
  unmonitor(monitor: Monitor | string): Promise<void>;
  types(type?: string): Promise<any[]>;
  create(type: string, options?: {
    id?: string; args?: object; scope?: 'daemon' | 'connection';
    subscribe?: true | string[] | { outputs?: string[]; replay?: boolean; patches?: boolean }; subscriptionTimeoutMs?: number | null;
    durable?: boolean;
    /** Record the instance from its creation; read the tape with tape(). */
    record?: boolean;
  }): Promise<Created>;
  destroy(instance: string): Promise<void>;
  list(): Promise<Array<{ instance: string; type: string; scope: string; subscribers: number; parent?: string }>>;
  send(instance: string, input: string, value?: Json, options?: { notify?: boolean }): Promise<void>;
  startExecute(instance: string, action: string, value?: Json, options?: ExecuteOptions): PendingCall;
  execute(instance: string, action: string, value?: Json, options?: ExecuteOptions): Promise<Json>;
  cancel(id: number): void;
  get(instance: string, output: string): Promise<Json>;
  /** vm.tape: the tape so far of an instance created with record: true, one object per line (the header first). */
  tape(instance: string): Promise<Array<{ [key: string]: Json }>>;
  subscribe(instance: string, options?: { outputs?: string[]; replay?: boolean; patches?: boolean; timeoutMs?: number | null }): Promise<Subscription>;
  unsubscribe(subscription: Subscription | string): Promise<void>;
}

export function connect(options?: {
  path?: string; timeoutMs?: number | null; connectTimeoutMs?: number; maxFrameBytes?: number; checkProtocol?: boolean;
  /** Open a resumable session and resume it after a drop (PROTOCOL.md, section 18). */
  reconnect?: boolean;
  /** Milliseconds before the first attempt to resume (doubling up to 1 s after that). */
  reconnectDelayMs?: number;
}): Promise<Client>;

/** The tape format version vmd writes (PROTOCOL.md, section 17). */
export const TAPE_VERSION: 3;
/** The tape format versions replayTape reads. */
export const TAPE_VERSIONS: number[];
/** The file is not a usable tape: empty, truncated, another version, unknown type. */
export class BadTapeError extends Error {}
/** The replay diverged; the message is the first divergence, expected versus got, and the step before it. */
export class TapeMismatchError extends Error {}
/** Replays a tape against a fresh instance; resolves with the number of steps, rejects with the diff. */
export function replayTape(file: string, options?: { path?: string; settleMs?: number; speed?: number | null }): Promise<number>;

/** Typed handles for declarations written by `vmctl gen typescript` (typed.d.ts). */
export * from './typed.js';
