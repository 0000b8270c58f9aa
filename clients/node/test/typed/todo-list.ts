import { connect, typed } from 'vmd-client';
import type { TodoListItemsItem, ViewModels } from './vmd-types.js';

export async function main(socketPath: string): Promise<void> {
  const vmd = typed<ViewModels>(await connect({ path: socketPath }));
  try {
    const todo = await vmd.create('TodoList', { args: { items: [{ title: 'milk', done: true }] }, scope: 'connection' });
    await todo.send('add', 'bread');
    const items: TodoListItemsItem[] = await todo.get('items');
    if (items.map((item) => item.title).join() !== 'milk,bread') throw new Error('items');
    await todo.send('rename', { id: items[1].id, title: 'rye bread' });
    await todo.send('toggle', items[1].id);
    await todo.send('clearDone');
    if ((await todo.get('items')).length !== 0 || (await todo.get('remaining')) !== 0) throw new Error('not cleared');
  } finally {
    await vmd.client.close();
  }
}
