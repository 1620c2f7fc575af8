"""A real HTTP server on 127.0.0.1 that answers chat completions with the statuses a test lines
up (401, 404, 429, 503, ...) before a well-formed answer: what a hosted endpoint does when a key is
wrong, a model is misnamed or the server is busy, which ``transformers serve`` never does. The
openai client and the engine talk to it over a socket as they would to any endpoint.
"""

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import List

_ERRORS = {401: ("invalid_api_key", "Incorrect API key provided."),
           404: ("model_not_found", "The model does not exist or you do not have access to it."),
           429: ("rate_limit_exceeded", "Rate limit reached."),
           500: ("server_error", "The server had an error."),
           503: ("overloaded", "The server is overloaded.")}


def completion(model: str, content: str) -> dict:
    return {"id": "chatcmpl-0", "object": "chat.completion", "created": 0, "model": model,
            "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": content}}],
            "usage": {"prompt_tokens": 11, "completion_tokens": 7, "total_tokens": 18}}


class StatusServer:
    """Answers the n-th chat-completion request with ``statuses[n]`` (an error body the way
    OpenAI's API writes one, and ``retry-after-ms: 1`` so the client's backoff stays short), and
    every later one with ``content``. ``requests`` counts what arrived, and ``keys`` the
    Authorization headers it saw."""

    def __init__(self, statuses: List[int], content: str = "The capital of France is Paris.") -> None:
        self.statuses, self.content = list(statuses), content
        self.requests, self.keys = 0, []
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def _next_status(self, authorization: str) -> int:
        with self._lock:
            index, self.requests = self.requests, self.requests + 1
            self.keys.append(authorization)
            return self.statuses[index] if index < len(self.statuses) else 200

    def _handler(self):
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
                status = server._next_status(self.headers.get("Authorization", ""))
                if status == 200:
                    payload = completion(body.get("model", ""), server.content)
                else:
                    code, message = _ERRORS.get(status, ("error", "error"))
                    payload = {"error": {"message": message, "type": code, "code": code, "param": None}}
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.send_header("retry-after-ms", "1")
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args):  # the test reads the counts, not a log on stderr
                pass

        return Handler
