import { connect, typed } from 'vmd-client';
import type { ViewModels } from './vmd-types.js';

export async function main(socketPath: string): Promise<void> {
  const vmd = typed<ViewModels>(await connect({ path: socketPath }));
  try {
    const counter = await vmd.create('Counter', { args: { start: 5 }, scope: 'connection', subscribe: ['count'] });
    await counter.send('increment');
    await counter.send('increment', 2);
    await counter.send('decrement', null);
    const count: number = await counter.get('count');
    if (count !== 7) throw new Error(`count ${count}`);
    await counter.send('set', 40);
    const reset: number = await counter.execute('reset');
    if (reset !== 0) throw new Error(`reset ${reset}`);
    const outputs = await counter.subscription!.take(6, { timeoutMs: 5000 });
    const counts: number[] = outputs.map((output) => output.value);
    if (counts.join() !== '5,6,8,7,40,0') throw new Error(`counts ${counts.join()}`);
  } finally {
    await vmd.client.close();
  }
}
