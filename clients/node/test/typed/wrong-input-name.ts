import { connect, typed } from 'vmd-client';
import type { ViewModels } from './vmd-types.js';

export async function main(socketPath: string): Promise<void> {
  const vmd = typed<ViewModels>(await connect({ path: socketPath }));
  const login = await vmd.create('Login');
  await login.send('emial', 'demo@example.com'); // misspelled: Login has no input "emial"
}
