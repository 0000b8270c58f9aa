from vmd_client import Client
from vmd_types import Login, LoginSubscription


def main(socket_path: str) -> None:
    with Client(socket_path) as vmd:
        login = Login.create(vmd, args={"latencyMs": 0}, scope="connection")
        outputs = login.subscribe(["loginSuccess"])
        assert login.get_isLoginAllowed() is False
        login.send_email("demo@example.com")
        login.send_password("secret")
        assert login.get_isLoginAllowed() is True
        who: str = login.execute_submit()
        assert who == "demo@example.com"
        success = outputs.next(timeout=5)
        assert isinstance(success, LoginSubscription.LoginSuccess)
        assert success.value == "demo@example.com"
