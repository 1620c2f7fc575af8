"""A real OpenAI-compatible server for the openai statement engine's tests: ``transformers serve``
(it ships with transformers and speaks the chat-completions protocol) on 127.0.0.1, serving a
tiny causal LM the tests build (``capqa.dev.offline_models.build_causal_lm``), offline.

Its access log (uvicorn's, one line per request) is the server's own count of the requests it
got: ``LLMServer.requests()``.
"""

import os
import shutil
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from support.space_server import free_port

_CHAT = '"POST /v1/chat/completions'


@dataclass
class LLMServer:
    process: subprocess.Popen
    base_url: str
    model: str
    log: Path

    def requests(self) -> int:
        """Chat-completion requests the server has answered or refused so far."""
        return self.log.read_text(errors="replace").count(_CHAT)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=30)


def transformers_cli() -> str:
    """The `transformers` command of the Python running the tests."""
    found = Path(sys.executable).with_name("transformers")
    return str(found) if found.exists() else shutil.which("transformers")


def start_server(model_folder: Path, folder: Path) -> LLMServer:
    """``transformers serve MODEL`` on a free port of 127.0.0.1; returns once it answers /health
    (however long a loaded machine takes; a server that fails to start ends the wait with its log)."""
    port = free_port()
    log = folder / f"serve-{port}.log"
    env = dict(os.environ, HF_HUB_OFFLINE="1", HF_HOME=str(folder / "hf-home"), PYTHONUNBUFFERED="1")
    with open(log, "w") as out:
        process = subprocess.Popen([transformers_cli(), "serve", str(model_folder), "--host", "127.0.0.1",
                                    "--port", str(port), "--device", "cpu", "--log-level", "info"],
                                   stdout=out, stderr=subprocess.STDOUT, env=env)
    server = LLMServer(process, f"http://127.0.0.1:{port}/v1", str(model_folder), log)
    while True:
        if process.poll() is not None:
            raise RuntimeError(f"transformers serve exited with {process.returncode}:\n{log.read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=5) as response:
                if response.status == 200:
                    return server
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.5)
