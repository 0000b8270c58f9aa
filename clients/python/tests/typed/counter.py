from vmd_client import Client
from vmd_types import Counter, CounterSubscription


def main(socket_path: str) -> None:
    with Client(socket_path) as vmd:
        counter = Counter.create(vmd, args={"start": 5}, scope="connection")
        outputs = counter.subscribe(["count"])
        counter.send_increment()
        counter.send_increment(2)
        counter.send_decrement(None)
        assert counter.get_count() == 7
        counter.send_set(40)
        assert counter.execute_reset() == 0
        counts = []
        for output in outputs.take(6, timeout=5):
            assert isinstance(output, CounterSubscription.Count)
            value: int = output.value
            counts.append(value)
        assert counts == [5, 6, 8, 7, 40, 0], counts
        counter.destroy()
