import { connect, typed } from 'vmd-client';
import type { ClassArgs, ClassDef, Node, ViewModels } from './odd-types.js';

export async function main(socketPath: string): Promise<void> {
  const vmd = typed<ViewModels>(await connect({ path: socketPath }));
  const args: ClassArgs = { from: 1, 'max-items': null };
  const odd = await vmd.create('class', { args });
  await odd.send('import', 'x');
  await odd.send('set-value');
  await odd.send('set_value', 3);
  await odd.send('2nd', true);
  await odd.send('caf\u00e9', 1.5);
  await odd.send('mode', 'slow-down');
  await odd.send('tree', { label: 'root', children: [{ label: 'leaf', children: [] }] });
  const forest: Node[] = [{ name: 'a', next: { name: 'b', next: null } }];
  await odd.send('forest', forest);
  await odd.send('tags', { colours: ['red'] });
  await odd.send('poke');
  const result: ClassDef = await odd.execute('run-now');
  const numbers: number[] = await odd.execute('lambda', { when: 'now' });
  const level: 1 | 2 | 'three' | true | null = await odd.get('levels');
  const outputs = await odd.subscribe({ outputs: ['def', 'levels'] });
  for await (const output of outputs) {
    if (output.output === 'def') {
      const definition: ClassDef = output.value;
      console.log(definition.class, definition['a b'], result.ok, numbers, level);
    }
  }
  await vmd.create('Class');
}
