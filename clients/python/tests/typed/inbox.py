from vmd_client import Client
from inbox_types import Inbox, InboxMessagesItem, MessageRow


def main(socket_path: str) -> None:
    with Client(socket_path) as vmd:
        inbox = Inbox.create(vmd, args={"folder": "inbox", "pageSize": 10}, scope="connection")
        messages: list[InboxMessagesItem] = inbox.execute_sync()
        assert messages and messages[0]["from"]
        unread = inbox.get_unreadCount()
        rows = inbox.get_rows()
        row = MessageRow(vmd, rows[0]["instance"])
        assert row.get_subject() == messages[0]["subject"]
        if not row.get_isRead():
            row.send_markRead()
            assert inbox.get_unreadCount() == unread - 1
        inbox.send_markAllRead()
        assert inbox.get_unreadCount() == 0
