import { connect, typed } from 'vmd-client';
import type { ViewModels } from './vmd-types.js';

export async function main(socketPath: string): Promise<void> {
  const vmd = typed<ViewModels>(await connect({ path: socketPath }));
  const todo = await vmd.create('TodoList');
  await todo.send('rename', { id: 'one', title: 'milk' }); // "id" is a number
}
