// The little of @types/node that clients/node/src/*.d.ts use, for `tsc --strict` on a machine
// without @types/node (Debian has no package of it). With @types/node installed, leave it out.
declare module 'node:events' {
  export class EventEmitter {
    on(event: string | symbol, listener: (...args: any[]) => void): this;
    once(event: string | symbol, listener: (...args: any[]) => void): this;
    off(event: string | symbol, listener: (...args: any[]) => void): this;
    emit(event: string | symbol, ...args: any[]): boolean;
  }
}
type Buffer = Uint8Array;
