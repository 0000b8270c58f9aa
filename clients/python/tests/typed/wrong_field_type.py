from vmd_client import Client
from vmd_types import TodoList


def main(socket_path: str) -> None:
    with Client(socket_path) as vmd:
        todo = TodoList.create(vmd)
        todo.send_rename({"id": "one", "title": "milk"})  # "id" is an integer
