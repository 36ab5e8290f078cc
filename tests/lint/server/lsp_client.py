"""A small JSON-RPC client speaking LSP to a server process over stdio (for the tests)."""

from __future__ import annotations

import json
import queue
import subprocess
import threading
from collections.abc import Callable, Sequence
from typing import Any

Message = dict[str, Any]


class LspClient:
    def __init__(self, command: Sequence[str], cwd: str, env: dict[str, str]) -> None:
        self.process = subprocess.Popen(
            list(command),
            cwd=cwd,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        self._next_id = 0
        self._responses: dict[int, queue.Queue[Message]] = {}
        self.notifications: queue.Queue[Message] = queue.Queue()
        self.seen: list[Message] = []  # every notification, in order
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _send(self, message: Message) -> None:
        body = json.dumps(message).encode("utf-8")
        assert self.process.stdin is not None
        self.process.stdin.write(f"Content-Length: {len(body)}\r\n\r\n".encode("ascii") + body)
        self.process.stdin.flush()

    def _read(self) -> None:
        stream = self.process.stdout
        assert stream is not None
        while True:
            length = None
            while True:
                header = stream.readline()
                if not header:
                    return
                if header in (b"\r\n", b"\n"):
                    break
                name, _, value = header.decode("ascii").partition(":")
                if name.strip().lower() == "content-length":
                    length = int(value.strip())
            assert length is not None
            message = json.loads(stream.read(length))
            if "id" in message and "method" in message:  # a request from the server
                self._send({"jsonrpc": "2.0", "id": message["id"], "result": None})
            elif "id" in message:
                self._responses.setdefault(message["id"], queue.Queue()).put(message)
            else:
                self.seen.append(message)
                self.notifications.put(message)

    def request(self, method: str, params: Any, timeout: float = 30) -> Any:
        self._next_id += 1
        ident = self._next_id
        box = self._responses.setdefault(ident, queue.Queue())
        self._send({"jsonrpc": "2.0", "id": ident, "method": method, "params": params})
        response = box.get(timeout=timeout)
        assert "error" not in response, response
        return response["result"]

    def notify(self, method: str, params: Any) -> None:
        self._send({"jsonrpc": "2.0", "method": method, "params": params})

    def wait_for(
        self, method: str, predicate: Callable[[Any], bool] = lambda params: True, timeout=30
    ) -> Any:
        """The params of the next notification ``method`` that satisfies ``predicate``."""
        while True:
            message = self.notifications.get(timeout=timeout)
            if message.get("method") == method and predicate(message.get("params")):
                return message["params"]

    def close(self) -> None:
        try:
            self.request("shutdown", None, timeout=10)
            self.notify("exit", None)
            self.process.wait(timeout=10)
        finally:
            if self.process.poll() is None:
                self.process.kill()
                self.process.wait()
            for stream in (self.process.stdin, self.process.stdout, self.process.stderr):
                if stream is not None:
                    stream.close()
