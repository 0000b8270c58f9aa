// Declarations for typed.js: `typed<ViewModels>(client)` with the `ViewModels` that
// `vmctl gen typescript` writes checks type names, input, output and action names, and values.
import type { EventEmitter } from 'node:events';
import type { Client, Output } from './index.js';

/** One view-model type as `vmctl gen typescript` declares it (an entry of `ViewModels`). */
export interface ViewModelShape {
  /** The creation arguments (`Record<string, never>` when it takes none). */
  args: object;
  argsRequired: boolean;
  /** Input name to the value it takes. */
  inputs: object;
  /** Inputs whose value may be left out (they have a default). */
  inputsWithDefault: string;
  /** Output name to its value. */
  outputs: object;
  /** State outputs: those `get` reads. */
  states: string;
  /** Action name to `{ input, output }`. */
  actions: object;
  actionsWithOptionalInput: string;
}

/** `M`'s view-model types, as `ViewModelShape`s. */
export type ViewModelMap<M> = { [K in keyof M]: ViewModelShape };

type Named<T> = Extract<keyof T, string>;
type InputOf<S extends ViewModelShape, A> = A extends keyof S['actions'] ? S['actions'][A] extends { input: infer I } ? I : never : never;
type ResultOf<S extends ViewModelShape, A> = A extends keyof S['actions'] ? S['actions'][A] extends { output: infer O } ? O : never : never;
type ValueOf<T, K> = K extends keyof T ? T[K] : never;

/** An output of `S`, its `value` narrowed by its `output` name. */
export type TypedOutput<S extends ViewModelShape> = {
  [K in Named<S['outputs']>]: Omit<Output, 'output' | 'value'> & { output: K; value: S['outputs'][K] };
}[Named<S['outputs']>];

/** A Subscription whose outputs are typed (the same object at run time). */
export interface TypedSubscription<S extends ViewModelShape> extends EventEmitter, AsyncIterable<TypedOutput<S>> {
  id: string;
  instance: string;
  closedReason: string | null;
  lost: Array<[number, number]>;
  timeoutMs: number | null;
  readonly ended: boolean;
  on(event: 'output', listener: (output: TypedOutput<S>) => void): this;
  on(event: string | symbol, listener: (...args: any[]) => void): this;
  next(options?: { timeoutMs?: number | null }): Promise<IteratorResult<TypedOutput<S>, undefined>>;
  take(count: number, options?: { timeoutMs?: number | null }): Promise<Array<TypedOutput<S>>>;
  [Symbol.asyncIterator](): AsyncIterator<TypedOutput<S>>;
}

export interface TypedSubscribeOptions<S extends ViewModelShape> {
  outputs?: Array<Named<S['outputs']>>; replay?: boolean; patches?: boolean; timeoutMs?: number | null;
}

export interface TypedCreateOptions<S extends ViewModelShape> {
  id?: string;
  args?: S['args'];
  scope?: 'daemon' | 'connection';
  subscribe?: true | Array<Named<S['outputs']>> | { outputs?: Array<Named<S['outputs']>>; replay?: boolean; patches?: boolean };
  subscriptionTimeoutMs?: number | null;
}

/** The client's own options, so an option added to `Client.execute` or `send` is typed here too. */
type ExecuteOptions = Parameters<Client['execute']>[3];
type SendOptions = Parameters<Client['send']>[3];

/** One instance of the view-model type `T`, shaped `S`. */
export interface TypedInstance<S extends ViewModelShape, T extends string = string> {
  readonly client: Client;
  readonly instance: string;
  readonly type: T;
  /** The subscription `create(type, { subscribe })` opened with the instance. */
  readonly subscription: TypedSubscription<S> | undefined;
  send<I extends Extract<S['inputsWithDefault'], Named<S['inputs']>>>(input: I, value?: ValueOf<S['inputs'], I>, options?: SendOptions): Promise<void>;
  send<I extends Named<S['inputs']>>(input: I, value: ValueOf<S['inputs'], I>, options?: SendOptions): Promise<void>;
  execute<A extends Extract<S['actionsWithOptionalInput'], Named<S['actions']>>>(action: A, value?: InputOf<S, A>, options?: ExecuteOptions): Promise<ResultOf<S, A>>;
  execute<A extends Named<S['actions']>>(action: A, value: InputOf<S, A>, options?: ExecuteOptions): Promise<ResultOf<S, A>>;
  get<O extends Extract<S['states'], Named<S['outputs']>>>(output: O): Promise<ValueOf<S['outputs'], O>>;
  subscribe(options?: TypedSubscribeOptions<S>): Promise<TypedSubscription<S>>;
  destroy(): Promise<void>;
}

type ArgsRequired<M extends ViewModelMap<M>> = { [K in Named<M>]: M[K]['argsRequired'] extends true ? K : never }[Named<M>];

/** A Client seen through generated declarations `M` (`ViewModels`). */
export interface TypedClient<M extends ViewModelMap<M>> {
  readonly client: Client;
  create<T extends ArgsRequired<M>>(type: T, options: TypedCreateOptions<M[T]> & { args: M[T]['args'] }): Promise<TypedInstance<M[T], T>>;
  create<T extends Exclude<Named<M>, ArgsRequired<M>>>(type: T, options?: TypedCreateOptions<M[T]>): Promise<TypedInstance<M[T], T>>;
  instance<T extends Named<M>>(type: T, id: string): TypedInstance<M[T], T>;
}

/** `client` with calls checked against `M`, the `ViewModels` of `vmctl gen typescript`. */
export function typed<M extends ViewModelMap<M>>(client: Client): TypedClient<M>;
