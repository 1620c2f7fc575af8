"""Serve the Space for its tests exactly as the README does: ``python app.py`` in a subprocess.

Host and port come from GRADIO_SERVER_NAME / GRADIO_SERVER_PORT, models from the CAP_*
variables; HF_HUB_OFFLINE and an empty HF_HOME make sure nothing reaches for the network. Each app
gets its own TMPDIR (``<folder>/tmp``), so that tests can see what its jobs leave behind. An app
given ``CAP_TEST_HOLD`` runs as ``python tests/support/held_app.py``: the same app, whose file jobs wait
between chunks while that file exists.
"""

import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from contextlib import ExitStack, contextmanager

from capqa.space.settings import SETTINGS

from support.data import REPO_ROOT

# Every variable the Space reads: an app gets only those a test gives it.
_CAP_VARIABLES = tuple(setting.variable for setting in SETTINGS)


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def app_environment(folder, **variables):
    """The environment of one app process: only the given CAP_* variables, nothing online."""
    env = {key: value for key, value in os.environ.items() if key not in _CAP_VARIABLES}
    env.update(GRADIO_SERVER_NAME="127.0.0.1", GRADIO_SERVER_PORT=str(free_port()),
               GRADIO_ANALYTICS_ENABLED="False", GRADIO_TEMP_DIR=str(folder / "gradio"),
               HF_HUB_OFFLINE="1", HF_HOME=str(folder / "hf-home"), PYTHONUNBUFFERED="1",
               TMPDIR=str(folder / "tmp"))
    env.update({key: str(value) for key, value in variables.items()})
    return env


def _wait_until_serving(process, url, log_path):
    """Until the page answers, however long a loaded machine takes: an app that fails to start
    exits, and that ends the wait with its log."""
    while True:
        if process.poll() is not None:
            raise RuntimeError(f"app.py exited with {process.returncode}:\n"
                               f"{log_path.read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.5)


@contextmanager
def serve_apps(*configurations):
    """Start one ``python app.py`` per (folder, {CAP_* variables}) at once; yield their URLs."""
    with ExitStack() as stack:
        started = []
        for folder, variables in configurations:
            (folder / "tmp").mkdir(parents=True, exist_ok=True)
            env = app_environment(folder, **variables)
            log_path = folder / "app.log"
            log = stack.enter_context(open(log_path, "w"))
            program = "tests/support/held_app.py" if "CAP_TEST_HOLD" in variables else "app.py"
            process = subprocess.Popen([sys.executable, program], cwd=REPO_ROOT, env=env,
                                       stdout=log, stderr=subprocess.STDOUT)
            stack.callback(_stop, process)
            started.append((process, f"http://127.0.0.1:{env['GRADIO_SERVER_PORT']}/", log_path))
        for process, url, log_path in started:
            _wait_until_serving(process, url, log_path)
        yield [url for _, url, _ in started]


def _stop(process):
    process.terminate()
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
