"""Unit tests of vmd_client's pure parts: the socket-path rule, framing, errors."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any, Dict, List

import pytest

import vmd_client
from vmd_client import _wire
from vmd_client._paths import check_socket_path, default_socket_path
from vmd_client._session import SeqTracker
from vmd_client._sync import _End


class TestSocketPathRule:
    def test_an_explicit_path_wins_over_everything(self) -> None:
        env = {"VMD_SOCKET": "/a.sock", "XDG_RUNTIME_DIR": "/run/user/7"}
        assert default_socket_path("/explicit.sock", env, uid=7) == "/explicit.sock"

    def test_vmd_socket_wins_over_the_runtime_dir(self) -> None:
        env = {"VMD_SOCKET": "/a.sock", "XDG_RUNTIME_DIR": "/run/user/7"}
        assert default_socket_path(None, env, uid=7) == "/a.sock"

    def test_an_empty_vmd_socket_is_ignored(self) -> None:
        env = {"VMD_SOCKET": "", "XDG_RUNTIME_DIR": "/run/user/7"}
        assert default_socket_path(None, env, uid=7) == "/run/user/7/vmd.sock"

    def test_the_runtime_dir_is_used_when_absolute(self) -> None:
        assert default_socket_path(None, {"XDG_RUNTIME_DIR": "/run/user/7"}, uid=7) == "/run/user/7/vmd.sock"

    @pytest.mark.parametrize("runtime", ["", "relative/dir"])
    def test_an_empty_or_relative_runtime_dir_falls_back_to_tmp(self, runtime: str) -> None:
        assert default_socket_path(None, {"XDG_RUNTIME_DIR": runtime}, uid=1234) == "/tmp/vmd-1234/vmd.sock"

    def test_without_any_setting_the_path_is_under_tmp_with_the_uid(self) -> None:
        assert default_socket_path(None, {}, uid=1000) == "/tmp/vmd-1000/vmd.sock"

    def test_a_path_longer_than_sun_path_is_an_error_not_truncated(self) -> None:
        long_path = "/tmp/" + "x" * 103  # 108 bytes
        with pytest.raises(vmd_client.SocketPathTooLong):
            check_socket_path(long_path)
        assert check_socket_path(long_path[:107]) == long_path[:107]

    def test_the_length_counts_bytes_not_characters(self) -> None:
        path = "/tmp/" + "é" * 52  # 5 + 104 bytes
        with pytest.raises(vmd_client.SocketPathTooLong):
            check_socket_path(path)


class TestFraming:
    def test_a_frame_is_compact_json_and_one_newline(self) -> None:
        frame = _wire.encode_frame(_wire.request(1, "vm.get", {"instance": "a\nb", "output": "é"}))
        assert frame.endswith(b"\n") and frame.count(b"\n") == 1
        assert json.loads(frame) == {"jsonrpc": "2.0", "id": 1, "method": "vm.get",
                                     "params": {"instance": "a\nb", "output": "é"}}
        assert b" " not in frame

    def test_a_body_of_exactly_the_limit_is_accepted_and_one_more_byte_is_refused(self) -> None:
        overhead = len(_wire.encode_frame("")) - 1
        exact = "x" * (1048576 - overhead)
        assert len(_wire.encode_frame(exact)) == 1048576 + 1
        with pytest.raises(vmd_client.FrameTooLarge):
            _wire.encode_frame(exact + "x")

    def test_the_limit_counts_utf8_bytes(self) -> None:
        with pytest.raises(vmd_client.FrameTooLarge):
            _wire.encode_frame("é" * 6, max_frame_bytes=12)  # 12 bytes of text + 2 quotes

    def test_nan_is_refused_because_json_has_no_nan(self) -> None:
        with pytest.raises(ValueError):
            _wire.encode_frame(float("nan"))

    def test_lines_survive_any_split_of_the_byte_stream(self) -> None:
        messages = [{"id": i, "text": "é" * i, "nested": {"list": list(range(i))}} for i in range(40)]
        stream = b"".join(_wire.encode_frame(m) for m in messages) + b"\r\n   \n"
        generator = random.Random(7)
        for chunking in ("bytewise", "random"):
            splitter = _wire.LineSplitter()
            lines = []
            position = 0
            while position < len(stream):
                size = 1 if chunking == "bytewise" else generator.randint(1, 200)
                lines += splitter.feed(stream[position:position + size])
                position += size
            assert [_wire.decode_line(line) for line in lines] == messages
            assert splitter.pending_bytes == 0

    def test_a_line_far_longer_than_the_frame_limit_is_received_whole(self) -> None:
        splitter = _wire.LineSplitter()
        big = _wire.encode_frame({"v": "y" * 3_000_000}, max_frame_bytes=10_000_000)
        lines = []
        for start in range(0, len(big), 65536):
            lines += splitter.feed(big[start:start + 65536])
        assert len(lines) == 1 and len(_wire.decode_line(lines[0])["v"]) == 3_000_000

    def test_params_leave_out_missing_members_but_keep_null(self) -> None:
        assert _wire.params(a=1, b=_wire.MISSING, c=None) == {"a": 1, "c": None}

    def test_a_notification_has_no_id(self) -> None:
        assert "id" not in _wire.notification("vm.send", {"instance": "x", "input": "y"})

    @pytest.mark.parametrize("given, sent", [
        (True, {}), (["count"], {"outputs": ["count"]}),
        ({"outputs": ["a"], "replay": False}, {"outputs": ["a"], "replay": False}),
    ])
    def test_create_subscribe_options(self, given: object, sent: object) -> None:
        assert _wire.subscribe_options(given) == sent

    def test_no_subscribe_option_sends_nothing(self) -> None:
        assert _wire.subscribe_options(None) is _wire.MISSING
        assert _wire.subscribe_options(False) is _wire.MISSING


class TestErrors:
    def test_every_protocol_error_name_has_its_own_class_and_code(self) -> None:
        openrpc = Path(__file__).resolve().parents[3] / "Protocol" / "openrpc.json"
        document = json.loads(openrpc.read_text(encoding="utf-8"))
        errors = document["components"]["errors"]
        assert set(errors) == set(vmd_client.ERROR_CLASSES)
        for name, error in errors.items():
            exception = vmd_client.error_from_object(error)
            assert type(exception) is vmd_client.ERROR_CLASSES[name]
            assert (exception.code, exception.name, exception.data) == (error["code"], name, error["data"])
            assert str(exception) == error["message"]

    def test_the_name_wins_over_the_code(self) -> None:
        exception = vmd_client.error_from_object({"code": -31002, "message": "m", "data": {"name": "invalidValue"}})
        assert isinstance(exception, vmd_client.InvalidValue)

    def test_an_unknown_name_and_code_give_the_base_class_with_everything_kept(self) -> None:
        exception = vmd_client.error_from_object({"code": -31050, "message": "new", "data": {"name": "later", "x": 1}})
        assert type(exception) is vmd_client.VMDError
        assert (exception.code, exception.name, exception.data["x"]) == (-31050, "later", 1)

    def test_a_known_code_without_data_still_finds_its_class(self) -> None:
        exception = vmd_client.error_from_object({"code": -32601, "message": "nope"})
        assert isinstance(exception, vmd_client.MethodNotFound) and exception.data == {}

    def test_a_malformed_error_object_does_not_raise_while_being_built(self) -> None:
        assert isinstance(vmd_client.error_from_object("boom"), vmd_client.VMDError)


class TestSessionResults:
    def test_a_session_open_result_with_a_token_and_a_grace_gives_a_resumable_session(self) -> None:
        opened = {"session": "session-1", "token": "ab" * 16, "graceMs": 5000}
        assert _wire.opened_session(opened) == ("ab" * 16, "session-1", 5000)

    def test_a_grace_of_zero_or_no_token_gives_no_resumable_session(self) -> None:
        assert _wire.opened_session({"session": "session-1", "token": "ab" * 16, "graceMs": 0}) is None
        assert _wire.opened_session({"session": "session-1", "graceMs": 5000}) is None
        assert _wire.opened_session(None) is None

    def test_a_refused_resume_is_a_restart_only_when_the_boot_id_changed(self) -> None:
        assert _wire.resume_refusal({"bootId": "b"}, "a") == ("b", True, "daemonRestarted")
        assert _wire.resume_refusal({"bootId": "a"}, "a") == ("a", False, "sessionExpired")
        assert _wire.resume_refusal({}, "a") == (None, False, "sessionExpired")
        assert _wire.resume_refusal({"bootId": "b"}, None) == ("b", False, "sessionExpired")

    def test_lost_ranges_are_the_gaps_recorded_after_each_mark(self) -> None:
        gaps = {"sub-1": [(2, 3), (7, 9)], "sub-2": [(4, 4)]}
        assert _wire.lost_ranges({"sub-1": 1, "sub-2": 1}, gaps) == [
            {"subscription": "sub-1", "fromSeq": 7, "toSeq": 9}]
        assert _wire.lost_ranges({"sub-2": 0}, gaps) == [{"subscription": "sub-2", "fromSeq": 4, "toSeq": 4}]


class TestSeqTracker:
    @staticmethod
    def output(seq: int) -> _wire.Output:
        return _wire.Output.from_params({"subscription": "sub-3", "instance": "c", "output": "count",
                                         "seq": seq, "value": seq})

    def test_an_overflow_a_gap_already_reported_is_not_queued_twice(self) -> None:
        seqs = SeqTracker()
        assert seqs.admit(self.output(1)) == (True, None)
        # After a resume: 2...5 went with the dropped socket, 6 was queued while detached (a gap
        # shows 2...5), then the daemon's vm.overflow for 2...5 (PROTOCOL.md, section 18).
        admitted, gap = seqs.admit(self.output(6))
        assert admitted and gap is not None and (gap.lost_from, gap.lost_to) == (2, 5)
        assert seqs.admit(_wire.Overflow("sub-3", "c", 2, 5)) == (False, None)
        assert seqs.gaps == [(2, 5)]

    def test_an_older_overflow_no_gap_covered_is_still_counted(self) -> None:
        seqs = SeqTracker()
        seqs.admit(self.output(1))
        assert seqs.admit(_wire.Overflow("sub-3", "c", 10, 12)) == (True, None)
        assert seqs.admit(_wire.Overflow("sub-3", "c", 7, 9)) == (True, None)
        assert seqs.gaps == [(10, 12), (7, 9)]
        assert seqs.last == 12


class TestPatchGaps:
    """A patch applies only on top of the value delivered right before it (PROTOCOL.md,
    section 18, "Patches across a resume"): after a gap in seq or a vm.overflow, patches are
    discarded until a whole value arrives, in the sync and the asyncio subscription alike."""

    @staticmethod
    def items() -> List[Any]:
        def output(seq: int, value: Any = None, patch: Any = None) -> _wire.Output:
            params = {"subscription": "sub-1", "instance": "todo-1", "output": "items", "seq": seq}
            params.update({"value": value} if patch is None else {"patch": patch})
            return _wire.Output.from_params(params)

        def append(element: int) -> List[Any]:
            return [{"op": "add", "path": "/-", "value": element}]

        return [output(1, [1]), output(2, patch=append(2)),
                output(5, patch=append(5)), output(6, patch=append(6)),  # after a gap: no base
                output(7, [7]), output(8, patch=append(8)),
                _wire.Overflow("sub-1", "todo-1", 9, 9),
                output(10, patch=append(10)),                              # after an overflow
                output(11, [11])]

    expected = {1: [1], 2: [1, 2], 7: [7], 8: [7, 8], 11: [11]}

    def test_the_sync_subscription_discards_patches_after_a_gap_until_a_whole_value(self) -> None:
        subscription = vmd_client.Subscription("sub-1", "todo-1", None)
        for item in self.items():
            subscription._put(item)
        subscription._put(_End("destroyed"))
        assert {output.seq: output.value for output in subscription} == self.expected

    def test_the_asyncio_subscription_discards_patches_after_a_gap_until_a_whole_value(self) -> None:
        async def run() -> Dict[int, Any]:
            subscription = vmd_client.AsyncSubscription("sub-1", "todo-1", None)
            for item in self.items():
                subscription._put(item)
            subscription._put(_End("destroyed"))
            return {output.seq: output.value async for output in subscription}

        assert asyncio.run(run()) == self.expected
