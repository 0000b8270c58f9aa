from vmd_client import Client
from vmd_types import Login


def main(socket_path: str) -> None:
    with Client(socket_path) as vmd:
        login = Login.create(vmd)
        login.send_emial("demo@example.com")  # misspelled: Login has no input "emial"
