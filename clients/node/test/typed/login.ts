import { connect, typed } from 'vmd-client';
import type { ViewModels } from './vmd-types.js';

export async function main(socketPath: string): Promise<void> {
  const vmd = typed<ViewModels>(await connect({ path: socketPath }));
  try {
    const login = await vmd.create('Login', { args: { latencyMs: 0 }, scope: 'connection' });
    const events = await login.subscribe({ outputs: ['loginSuccess'] });
    await login.send('email', 'demo@example.com');
    await login.send('password', 'secret');
    const allowed: boolean = await login.get('isLoginAllowed');
    if (!allowed) throw new Error('login not allowed');
    const who: string = await login.execute('submit');
    const success = await events.next({ timeoutMs: 5000 });
    if (success.done || success.value.output !== 'loginSuccess') throw new Error('no loginSuccess');
    const value: string = success.value.value;
    if (who !== 'demo@example.com' || value !== who) throw new Error(`signed in as ${who}, ${value}`);
  } finally {
    await vmd.client.close();
  }
}
