from vmd_client import Client
from vmd_types import TextField


def main(socket_path: str) -> None:
    with Client(socket_path) as vmd:
        field = TextField.create(vmd, args={"text": "ab"}, scope="connection")
        field.send_type("abc")
        assert field.get_text() == "abc"
        field.send_set("hello")
        length: int = field.get_length()
        assert length == 5
