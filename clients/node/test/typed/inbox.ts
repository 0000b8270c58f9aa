import { connect, typed } from 'vmd-client';
import type { InboxMessagesItem, ViewModels } from './inbox-types.js';

export async function main(socketPath: string): Promise<void> {
  const vmd = typed<ViewModels>(await connect({ path: socketPath }));
  try {
    const inbox = await vmd.create('Inbox', { args: { folder: 'inbox', pageSize: 10 }, scope: 'connection' });
    const messages: InboxMessagesItem[] = await inbox.execute('sync');
    if (messages.length === 0 || !messages[0].from) throw new Error('no messages');
    const unread = await inbox.get('unreadCount');
    const rows = await inbox.get('rows');
    const row = vmd.instance('MessageRow', rows[0].instance);
    if ((await row.get('subject')) !== messages[0].subject) throw new Error('another subject');
    if (!(await row.get('isRead'))) {
      await row.send('markRead');
      if ((await inbox.get('unreadCount')) !== unread - 1) throw new Error('not marked read');
    }
    await inbox.send('markAllRead');
    if ((await inbox.get('unreadCount')) !== 0) throw new Error('unread left');
  } finally {
    await vmd.client.close();
  }
}
