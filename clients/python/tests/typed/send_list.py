import uuid

from vmd_client import Client
from vmd_types import SendHistory, SendHistorySubscription, SendList, SendReceipt, SendReceiptArgs


def main(socket_path: str) -> None:
    with Client(socket_path) as vmd:
        sending = SendList.create(vmd, scope="connection")
        sending.send_addRecipient("ann@example.com")
        sending.send_message("hello")
        assert sending.get_recipients() == ["ann@example.com"]
        assert sending.get_canSend() is True
        sent = sending.execute_send({"key": uuid.uuid4().hex})
        receipt = SendReceipt(vmd, sent["instance"])
        assert receipt.get_uploadId() == sent["uploadId"]
        assert receipt.get_message() == "hello"
        args: SendReceiptArgs = {"uploadId": 7, "message": "by hand", "recipients": ["bob@example.com"]}
        by_hand = SendReceipt.create(vmd, args=args, scope="connection")
        assert by_hand.get_recipients() == ["bob@example.com"]
        history = SendHistory.create(vmd, scope="connection")
        # It loads when created; its uploads come as that load ends.
        for output in history.subscribe(["uploads"], timeout=5):
            assert isinstance(output, SendHistorySubscription.Uploads)
            if any(upload["id"] == sent["uploadId"] for upload in output.value):
                break
