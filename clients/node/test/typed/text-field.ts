import { connect, typed } from 'vmd-client';
import type { ViewModels } from './vmd-types.js';

export async function main(socketPath: string): Promise<void> {
  const vmd = typed<ViewModels>(await connect({ path: socketPath }));
  try {
    const field = await vmd.create('TextField', { args: { text: 'ab' }, scope: 'connection' });
    await field.send('type', 'abc');
    await field.send('set', 'hello');
    const length: number = await field.get('length');
    if (length !== 5 || (await field.get('text')) !== 'hello') throw new Error(`length ${length}`);
  } finally {
    await vmd.client.close();
  }
}
