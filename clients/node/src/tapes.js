// Replaying tapes (Protocol/PROTOCOL.md, section 17) against a running vmd, as `vmctl replay` does.
// A tape is NDJSON: a header {"tape": 3, "type", "args", "fromCreation"?, "dropped"?, "ids"?}
// (versions 1 and 2 still read), then input, action and output events, each with t, milliseconds
// since the recording started; a replay sends each step at its t. Ids the run makes up (the
// header's ids: a child scene's instance id, a store's id) are matched by place (section 17, "Ids").
import fs from 'node:fs/promises';
import { isDeepStrictEqual } from 'node:util';
import { connect, VmdError } from './index.js';

/** The tape format version vmd writes (2 for a tape without ids). */
export const TAPE_VERSION = 3;
/** The tape format versions replayTape reads. */
export const TAPE_VERSIONS = [1, 2, 3];

/** The file is not a usable tape: empty, truncated, another version, unknown type. */
export class BadTapeError extends Error {
  constructor(message) { super(message); this.name = 'BadTapeError'; }
}

/** The replay diverged: the message is the first divergence, expected versus got, and the step before it. */
export class TapeMismatchError extends Error {
  constructor(message) { super(message); this.name = 'TapeMismatchError'; }
}

function parseTape(text) {
  const lines = text.split('\n').map((line, index) => [index + 1, line]).filter(([, line]) => line.trim() !== '');
  if (lines.length === 0) throw new BadTapeError('the tape is empty');
  const events = lines.map(([number, line]) => {
    let value;
    try { value = JSON.parse(line); } catch (error) {
      throw new BadTapeError(`line ${number}: not JSON (${error.message}); is the tape truncated?`);
    }
    if (!value || typeof value !== 'object' || Array.isArray(value)) throw new BadTapeError(`line ${number}: expected a JSON object`);
    return { ...value, _line: number };
  });
  const header = events.shift();
  if (!('tape' in header)) throw new BadTapeError('line 1: not a tape header (no "tape" version)');
  if (!TAPE_VERSIONS.includes(header.tape)) {
    throw new BadTapeError(`line 1: unsupported tape version ${JSON.stringify(header.tape)}; this client reads versions ${TAPE_VERSIONS[0]} to ${TAPE_VERSIONS.at(-1)}`);
  }
  if (typeof header.type !== 'string') throw new BadTapeError('line 1: the header has no "type" string');
  if (Number.isInteger(header.dropped) && header.dropped > 0) {
    throw new BadTapeError(`the recorder dropped the first ${header.dropped} events of this tape, so it no longer starts at the instance's creation and cannot be replayed`);
  }
  for (const event of events) {
    const kind = event.event;
    if (!['input', 'action', 'output'].includes(kind)) throw new BadTapeError(`line ${event._line}: unknown event ${JSON.stringify(kind)}`);
    if (typeof event[kind] !== 'string') throw new BadTapeError(`line ${event._line}: an ${kind} event needs a "${kind}" string`);
    if (kind === 'action') {
      const outcome = event.outcome;
      if (!outcome || typeof outcome !== 'object' || ('result' in outcome) === ('error' in outcome)) {
        throw new BadTapeError(`line ${event._line}: an action event needs "outcome": {"result": ...} or {"error": ...} (is the tape truncated?)`);
      }
    }
    if (kind === 'output' && !('value' in event)) throw new BadTapeError(`line ${event._line}: an output event needs a "value"`);
  }
  return { header, events };
}

/**
 * The header's ids and what the replay learned of them: a recorded id and a replayed id met at
 * the same place are bound; a bound replayed id reads as its recorded id, and a step sends a
 * bound recorded id as its replayed id. In outputs and results the replay's instance id, and
 * ids derived from it (parent.name), read with the recorded instance id.
 */
class RunIds {
  constructor(header, expected, replayInstance) {
    this.places = new Map();
    if (header.ids && typeof header.ids === 'object' && !Array.isArray(header.ids)) {
      for (const [port, pointers] of Object.entries(header.ids)) {
        if (!Array.isArray(pointers)) continue;
        this.places.set(port, pointers.filter((pointer) => typeof pointer === 'string')
          .map((pointer) => pointer.split('/').slice(1).map((token) => token.replaceAll('~1', '/').replaceAll('~0', '~'))));
      }
    }
    this.expected = expected;
    this.emitted = new Map();
    this.replayedFor = new Map();
    this.recordedFor = new Map();
    this.instance = typeof header.instance === 'string' && replayInstance !== undefined && replayInstance !== header.instance
      ? { recorded: header.instance, replayed: replayInstance } : null;
  }

  /** `value` with each string that is the replayed instance id, or starts with it and a ".", written with the recorded one. */
  renaming(value) {
    const { recorded, replayed } = this.instance;
    if (typeof value === 'string') {
      return value === replayed || value.startsWith(`${replayed}.`) ? recorded + value.slice(replayed.length) : value;
    }
    if (Array.isArray(value)) return value.map((item) => this.renaming(item));
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, this.renaming(item)]));
    return value;
  }

  static at(value, place) {
    for (const token of place) {
      if (!value || typeof value !== 'object' || Array.isArray(value) || !(token in value)) return undefined;
      value = value[token];
    }
    return value;
  }

  static with(value, place, next) {
    if (place.length === 0) return next;
    if (!value || typeof value !== 'object' || Array.isArray(value) || !(place[0] in value)) return value;
    return { ...value, [place[0]]: RunIds.with(value[place[0]], place.slice(1), next) };
  }

  /** `got` (what `port` emitted or returned) with its bound replayed ids read as the recorded ones. */
  recorded(got, port, expected) {
    if (this.instance !== null) got = this.renaming(got);
    let value = got;
    for (const place of this.places.get(port) ?? []) {
      const replayed = RunIds.at(got, place);
      if (replayed === undefined) continue;
      const key = JSON.stringify(replayed);
      if (this.recordedFor.has(key)) {
        value = RunIds.with(value, place, this.recordedFor.get(key));
        continue;
      }
      const recorded = expected === undefined ? undefined : RunIds.at(expected, place);
      if (recorded !== undefined && !this.replayedFor.has(JSON.stringify(recorded))) {
        this.replayedFor.set(JSON.stringify(recorded), replayed);
        this.recordedFor.set(key, recorded);
        value = RunIds.with(value, place, recorded);
      }
    }
    return value;
  }

  /** The next value of output `name`, matched with the tape's at the same position. */
  output(name, value) {
    if (!this.places.has(name)) return this.recorded(value, name, undefined);
    const index = this.emitted.get(name) ?? 0;
    this.emitted.set(name, index + 1);
    return this.recorded(value, name, (this.expected.get(name) ?? [])[index]?.value);
  }

  /** A step's value with every string that is a bound recorded id sent as its replayed id. */
  replayed(value) {
    if (typeof value === 'string') return this.replayedFor.has(JSON.stringify(value)) ? this.replayedFor.get(JSON.stringify(value)) : value;
    if (Array.isArray(value)) return value.map((item) => this.replayed(item));
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, this.replayed(item)]));
    return value;
  }
}

function sameOutcome(expected, got) {
  if ('error' in expected) {
    return got.error !== undefined && expected.error.code === got.error.code
      && (expected.error.data ?? {}).name === (got.error.data ?? {}).name;
  }
  return got.error === undefined && isDeepStrictEqual(expected.result, got.result);
}

/**
 * Replays the tape at `file` against the vmd at `path` (the usual socket rule when undefined):
 * a fresh connection-scoped instance of its type and args, its inputs and actions in order, each
 * at its recorded t divided by `speed` (null: back to back) and each action's outcome awaited,
 * then per output the sequence of values and each outcome compared.
 * Resolves with the number of steps; rejects with TapeMismatchError (the diff) or BadTapeError.
 */
export async function replayTape(file, { path, settleMs = 2000, speed = 1 } = {}) {
  if (speed !== null && !(typeof speed === 'number' && speed > 0 && Number.isFinite(speed))) {
    throw new TypeError(`speed must be a positive number or null, not ${speed}`);
  }
  const { header, events } = parseTape(await fs.readFile(file, 'utf8'));
  const steps = events.filter((event) => event.event !== 'output');
  const label = (index) => {
    if (index < 0) return "the instance's creation";
    const step = steps[index];
    const value = 'value' in step ? ` ${JSON.stringify(step.value)}` : '';
    return `step ${index + 1} (line ${step._line}): ${step.event} ${step[step.event]}${value}`;
  };
  const expected = new Map();
  let done = 0;
  for (const event of events) {
    if (event.event === 'output') {
      if (!expected.has(event.output)) expected.set(event.output, []);
      expected.get(event.output).push({ value: event.value, after: done });
    } else done += 1;
  }

  const vmd = await connect({ path });
  let ids;
  const got = new Map();
  let divergence = null;
  let divergenceStep = Infinity;
  try {
    let created;
    try {
      created = await vmd.create(header.type, { args: header.args ?? undefined, scope: 'connection', subscribe: { replay: true } });
    } catch (error) {
      if (error instanceof VmdError && error.errorName === 'unknownType') {
        throw new BadTapeError(`${file}: the daemon cannot create its instance: ${error.message}`);
      }
      throw error;
    }
    const subscription = created.subscription;
    ids = new RunIds(header, expected, created.instance);
    const start = Date.now();
    let stepsDone = 0;
    const take = async (timeoutMs) => {
      try {
        const { value, done: ended } = await subscription.next({ timeoutMs });
        if (ended) return false;
        if (value && typeof value.output === 'string') {
          if (!got.has(value.output)) got.set(value.output, []);
          got.get(value.output).push({ value: ids.output(value.output, value.value), after: stepsDone });
        }
        return true;
      } catch {
        return false;
      }
    };
    const drain = async () => { while (subscription.items.length > 0 && await take(0)); };

    for (const [index, step] of steps.entries()) {
      if (speed !== null && Number.isInteger(step.t)) {
        const due = start + step.t / speed;
        while (Date.now() < due) {
          if (!(await take(due - Date.now()))) await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - Date.now())));
        }
      }
      await drain();
      if (step.event === 'input') {
        try {
          await vmd.send(created.instance, step.input, ids.replayed(step.value));
        } catch (error) {
          if (!(error instanceof VmdError)) throw error;
          if (divergence === null) {
            divergence = `${label(index)} failed: ${error.message}\n  expected: accepted`;
            divergenceStep = index;
          }
        }
      } else {
        let outcome;
        try {
          const result = await vmd.execute(created.instance, step.action, ids.replayed(step.value),
            step.timeoutMs === undefined ? undefined : { timeoutMs: step.timeoutMs });
          outcome = { result: ids.recorded(result, step.action, step.outcome.result) };
        } catch (error) {
          if (!(error instanceof VmdError)) throw error;
          outcome = { error: { code: error.code, message: error.message, data: error.data } };
        }
        if (divergence === null && !sameOutcome(step.outcome, outcome)) {
          divergence = `${label(index)} had another outcome\n  expected: ${JSON.stringify(step.outcome)}\n  got:      ${JSON.stringify(outcome)}`;
          divergenceStep = index;
        }
      }
      stepsDone = index + 1;
    }
    await drain();
    const deadline = Date.now() + settleMs;
    const short = () => [...expected].some(([name, values]) => (got.get(name) ?? []).length < values.length);
    while (short()) {
      const left = deadline - Date.now();
      if (left <= 0 || !(await take(left))) break;
    }
    while (await take(50));
  } finally {
    await vmd.close();
  }

  // The earlier of a step's failure and an output's divergence (one before the step caused it).
  let best = null;
  for (const name of [...new Set([...expected.keys(), ...got.keys()])].sort()) {
    const want = expected.get(name) ?? [];
    const have = got.get(name) ?? [];
    for (let index = 0; index < Math.max(want.length, have.length); index += 1) {
      const wanted = want[index];
      const had = have[index];
      if (wanted && had && isDeepStrictEqual(wanted.value, had.value)) continue;
      const after = Math.min(wanted?.after ?? Infinity, had?.after ?? Infinity);
      const text = `output "${name}" differs at value #${index + 1}\n`
        + `  expected: ${wanted ? JSON.stringify(wanted.value) : '(no more values)'}\n`
        + `  got:      ${had ? JSON.stringify(had.value) : '(no more values)'}\n`
        + `  after:    ${label(after - 1)}`;
      if (best === null || after < best.after) best = { after, text };
      break;
    }
  }
  if (best !== null && (divergence === null || best.after <= divergenceStep)) divergence = best.text;
  if (divergence !== null) throw new TapeMismatchError(`tape ${file} does not replay: ${divergence}`);
  return steps.length;
}
