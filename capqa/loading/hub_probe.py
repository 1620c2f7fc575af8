"""Whether the Hugging Face Hub answers: one short probe per process, before any Hub download.

Without ``HF_HUB_OFFLINE``, huggingface_hub retries an unreachable Hub with back-off (about 25 s
for each file a load asks for, ~54 s for the NLI tokenizer and model) before it gives up. One
HEAD request to the endpoint, bounded by ``probe_timeout()`` whatever the network does (DNS
included: the request runs in a thread that is abandoned at the deadline), says at once whether
the Hub can be reached. When it cannot, models load from the local cache only
(``local_files_only=True``): a cached copy loads as before, and a missing one fails at once with
the message of ``capqa.loading.pretrained``. When it answers, nothing changes: the Hub code runs as
it always does. The answer is remembered per endpoint for the life of the process.
"""

import logging
import os
import threading
from typing import Dict

logger = logging.getLogger(__name__)

# Seconds the probe waits for any answer from the Hub. A Hub that answers at all does so well
# within this; HF_HUB_ETAG_TIMEOUT (huggingface_hub's own timeout for metadata requests), when set,
# replaces it, so a user on a slow link has one knob for both.
DEFAULT_PROBE_TIMEOUT_S = 3.0

_answers: Dict[str, bool] = {}
_lock = threading.Lock()


def probe_timeout() -> float:
    """The probe's deadline in seconds: ``HF_HUB_ETAG_TIMEOUT`` when set to a positive number,
    else ``DEFAULT_PROBE_TIMEOUT_S``."""
    try:
        value = float(os.environ.get("HF_HUB_ETAG_TIMEOUT", ""))
    except ValueError:
        return DEFAULT_PROBE_TIMEOUT_S
    return value if value > 0 else DEFAULT_PROBE_TIMEOUT_S


def hub_endpoint() -> str:
    """The Hub endpoint huggingface_hub talks to (``HF_ENDPOINT`` or https://huggingface.co)."""
    # Deferred: huggingface_hub is heavy, imported on first use.
    from huggingface_hub import constants

    return constants.ENDPOINT


def hub_reachable() -> bool:
    """Whether the Hub endpoint answered the probe (asked once per endpoint and process)."""
    endpoint = hub_endpoint()
    with _lock:
        if endpoint not in _answers:
            _answers[endpoint] = probe_endpoint(endpoint, probe_timeout())
        return _answers[endpoint]


def forget_probes() -> None:
    """Ask again at the next ``hub_reachable`` (for a process whose network changed, and tests)."""
    with _lock:
        _answers.clear()


def probe_endpoint(endpoint: str, timeout: float) -> bool:
    """Any HTTP answer (even an error status) means the Hub is reachable; an error or no answer
    within ``timeout`` seconds means it is not."""
    outcome = {}

    def ask():
        # Deferred: huggingface_hub is heavy, imported on first use.
        from huggingface_hub.utils import get_session

        try:
            response = get_session().head(endpoint, timeout=timeout, follow_redirects=False)
            outcome["status"] = response.status_code
        except Exception as error:  # any transport failure: DNS, refused, TLS, proxy, timeout
            outcome["error"] = f"{type(error).__name__}: {error}"

    thread = threading.Thread(target=ask, name="cap-hub-probe", daemon=True)
    thread.start()
    thread.join(timeout)
    if "status" in outcome:
        logger.debug("the Hugging Face Hub at %s answered the probe (HTTP %s)", endpoint, outcome["status"])
        return True
    why = outcome.get("error", f"no answer within {timeout:g} s")
    logger.warning("the Hugging Face Hub at %s cannot be reached (%s): models load from the local cache only, "
                   "without retrying the Hub (HF_HUB_OFFLINE=1 skips this check)", endpoint, why)
    return False
