import { connect, typed } from 'vmd-client';
import type { SendReceiptArgs, ViewModels } from './vmd-types.js';

export async function main(socketPath: string): Promise<void> {
  const vmd = typed<ViewModels>(await connect({ path: socketPath }));
  try {
    const sending = await vmd.create('SendList', { scope: 'connection' });
    await sending.send('addRecipient', 'ann@example.com');
    await sending.send('message', 'hello');
    const canSend: boolean = await sending.get('canSend');
    if (!canSend) throw new Error('cannot send');
    const sent = await sending.execute('send', { key: `ts-${Date.now()}-${Math.random()}` });
    const receipt = vmd.instance('SendReceipt', sent.instance);
    if ((await receipt.get('uploadId')) !== sent.uploadId) throw new Error('another upload');
    const args: SendReceiptArgs = { uploadId: 7, message: 'by hand', recipients: ['bob@example.com'] };
    const byHand = await vmd.create('SendReceipt', { args, scope: 'connection' });
    const recipients: string[] = await byHand.get('recipients');
    if (recipients.join() !== 'bob@example.com') throw new Error(`recipients ${recipients.join()}`);
    // SendHistory loads when created; its uploads come as that load ends.
    const history = await vmd.create('SendHistory', { scope: 'connection', subscribe: ['uploads'] });
    for await (const output of history.subscription!) {
      if (output.output === 'uploads' && output.value.some((upload) => upload.id === sent.uploadId)) break;
    }
  } finally {
    await vmd.client.close();
  }
}
