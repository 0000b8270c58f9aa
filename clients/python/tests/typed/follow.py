from vmd_client import Client
from vmd_types import Follow, FollowSubscription


def main(socket_path: str) -> None:
    with Client(socket_path) as vmd:
        follow = Follow.create(vmd, args={"userId": "ann", "initial": False, "latencyMs": 0}, scope="connection")
        # It loads when created; toggle is enabled once that load ends.
        for output in follow.subscribe(["isLoading"], timeout=5):
            if isinstance(output, FollowSubscription.IsLoading) and output.value is False:
                break
        following: bool = follow.execute_toggle()
        assert following is True
        assert follow.get_isFollowing() is True
        assert follow.get_isLoading() is False
        assert follow.execute_reload() is True
