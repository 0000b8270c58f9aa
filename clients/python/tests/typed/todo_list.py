from vmd_client import Client
from vmd_types import TodoList, TodoListItemsItem


def main(socket_path: str) -> None:
    with Client(socket_path) as vmd:
        todo = TodoList.create(vmd, args={"items": [{"title": "milk", "done": True}]}, scope="connection")
        todo.send_add("bread")
        items = todo.get_items()
        assert [item["title"] for item in items] == ["milk", "bread"]
        todo.send_rename({"id": items[1]["id"], "title": "rye bread"})
        todo.send_toggle(items[1]["id"])
        todo.send_clearDone()
        remaining: list[TodoListItemsItem] = todo.get_items()
        assert remaining == [], remaining
        assert todo.get_remaining() == 0
