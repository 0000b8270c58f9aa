from typing import List

from vmd_client import Client
from odd_types import Class, Class2, ClassArgs, ClassDef, ClassSubscription, Node


def use(vmd: Client) -> None:
    args: ClassArgs = {"from": 1, "max-items": None}
    odd = Class.create(vmd, args=args)
    odd.send_import("x")
    odd.send_set_value()
    odd.send_set_value_2(3)
    odd.send__2nd(True)
    odd.send_caf_uE9(1.5)
    odd.send_mode("slow-down")
    odd.send_tree({"label": "root", "children": [{"label": "leaf", "children": []}]})
    forest: List[Node] = [{"name": "a", "next": {"name": "b", "next": None}}]
    odd.send_forest(forest)
    odd.send_tags({"colours": ["red"]})
    odd.send_poke()
    result: ClassDef = odd.execute_run_now()
    assert result["class"] and result.get("a b") is None
    numbers: List[int] = odd.execute_lambda({"when": "now"})
    assert numbers
    level = odd.get_levels()
    assert level in (1, 2, "three", True, None)
    for output in odd.subscribe(["def", "levels"]):
        if isinstance(output, ClassSubscription.Def):
            definition: ClassDef = output.value
            assert definition["ok"]
    Class2.create(vmd).destroy()
