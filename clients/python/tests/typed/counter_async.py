import asyncio

from vmd_client import AsyncClient
from vmd_types import AsyncCounter


async def run(socket_path: str) -> None:
    async with AsyncClient.connect(socket_path) as vmd:
        counter = await AsyncCounter.create(vmd, scope="connection")
        outputs = await counter.subscribe()
        await counter.send_increment(3)
        assert await counter.get_count() == 3
        assert await counter.execute_reset() == 0
        values = [output.value for output in await outputs.take(3, timeout=5)]
        assert values == [0, 3, 0], values


def main(socket_path: str) -> None:
    asyncio.run(run(socket_path))
