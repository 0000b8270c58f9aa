"""A keyed SendList send whose answer was lost is retried by the client
after reconnecting, and stored once, across kill -9 and a restart of vmd."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import List

from vmd_client import AsyncClient, Client
from vmd_client.testing import DaemonProcess, find_vmd_binary

REPO_ROOT = Path(__file__).resolve().parents[3]
WAIT = 10.0


def fill_send_list(client: Client) -> str:
    instance = client.create("SendList").instance
    client.send(instance, "addRecipient", "ada@example.com")
    client.send(instance, "message", "Hello")
    return instance


def kill_and_restart(daemon: DaemonProcess) -> None:
    assert daemon.process is not None
    daemon.process.kill()
    daemon.process.wait(WAIT)
    daemon.stop()  # already dead: closes its log
    daemon.start()  # same socket path and state directory


def stored_uploads(client: Client) -> List[dict]:
    """The uploads a new SendHistory read at creation, once it has finished reading."""
    history = client.create("SendHistory", subscribe=True, subscription_timeout=WAIT)
    assert history.subscription is not None
    for output in history.subscription:
        if output.output == "isLoading" and output.value is False and not output.replay:
            break
    return client.get(history.instance, "uploads")


class TestSendRetry:
    def test_a_send_stored_but_unanswered_is_retried_with_its_key_and_stored_once(self) -> None:
        with DaemonProcess(find_vmd_binary(REPO_ROOT)) as daemon:
            with Client(daemon.socket_path, timeout=WAIT, reconnect=True, connect_timeout=20) as client:
                key = {"key": "py-retry-1"}
                attempts: List[str] = []

                def prepare(c: Client) -> str:
                    instance = fill_send_list(c)
                    attempts.append(instance)
                    if len(attempts) == 1:
                        # The first try reaches the store, but its answer never comes back:
                        # stored through another connection, then vmd dies (kill -9).
                        with Client(daemon.socket_path, timeout=WAIT) as other:
                            assert other.execute(fill_send_list(other), "send", key)["uploadId"] == 1
                        kill_and_restart(daemon)
                    return instance

                result = client.execute_retrying("send", key, prepare)
                assert result["uploadId"] == 1
                assert len(attempts) == 2
                assert stored_uploads(client) == [
                    {"id": 1, "message": "Hello", "recipients": ["ada@example.com"], "key": "py-retry-1"},
                ]

    def test_without_reconnect_a_lost_answer_is_raised(self) -> None:
        with DaemonProcess(find_vmd_binary(REPO_ROOT)) as daemon:
            with Client(daemon.socket_path, timeout=WAIT) as client:
                def prepare(c: Client) -> str:
                    instance = fill_send_list(c)
                    kill_and_restart(daemon)
                    return instance

                try:
                    client.execute_retrying("send", {"key": "k"}, prepare)
                    raise AssertionError("a lost answer must raise without reconnect")
                except ConnectionError:
                    pass

    def test_the_async_client_retries_too(self) -> None:
        async def scenario(daemon: DaemonProcess) -> None:
            client = await AsyncClient.connect(daemon.socket_path, timeout=WAIT, reconnect=True, connect_timeout=20)
            attempts = 0

            async def prepare(c: AsyncClient) -> str:
                nonlocal attempts
                attempts += 1
                instance = (await c.create("SendList")).instance
                await c.send(instance, "addRecipient", "ada@example.com")
                await c.send(instance, "message", "Hello")
                if attempts == 1:
                    kill_and_restart(daemon)
                return instance

            try:
                result = await client.execute_retrying("send", {"key": "aio-1"}, prepare)
                assert result["uploadId"] == 1
                assert attempts == 2
            finally:
                await client.close()

        with DaemonProcess(find_vmd_binary(REPO_ROOT)) as daemon:
            asyncio.run(scenario(daemon))
