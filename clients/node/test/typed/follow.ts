import { connect, typed } from 'vmd-client';
import type { ViewModels } from './vmd-types.js';

export async function main(socketPath: string): Promise<void> {
  const vmd = typed<ViewModels>(await connect({ path: socketPath }));
  try {
    const follow = await vmd.create('Follow', {
      args: { userId: 'ann', initial: false, latencyMs: 0 }, scope: 'connection', subscribe: ['isLoading'],
    });
    // It loads when created; toggle is enabled once that load ends.
    for await (const output of follow.subscription!) {
      if (output.output === 'isLoading' && output.value === false) break;
    }
    const following: boolean = await follow.execute('toggle');
    if (following !== true || (await follow.get('isFollowing')) !== true) throw new Error('not following');
    if ((await follow.get('isLoading')) !== false) throw new Error('still loading');
  } finally {
    await vmd.client.close();
  }
}
