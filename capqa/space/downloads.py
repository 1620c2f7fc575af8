"""Scored files handed to the visitor under a neutral address, ``/cap-download/<token>/<name>``.

gradio serves a file an event returns from its own cache, as ``/gradio_api/file=<server path>``:
the page and the API would show the server's temporary folder. The Space instead keeps each
scored file in a folder of its own under a random token and serves it with a route of its own
(``Downloads.routes``, given to ``launch`` through ``app_kwargs``). The download box
(``download_file``) gets that address as an absolute URL, rooted as gradio roots its own.
Files expire after ``keep_s`` seconds; folders of dead processes go at start (``JobFolders``).
"""

import secrets
import shutil
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple
from urllib.parse import quote

import gradio as gr

from capqa.space.job_folders import JobFolders

ROUTE = "/cap-download"


@dataclass(frozen=True)
class Download:
    """A file ready to be downloaded: its address as the visitor reaches it, its name and size."""

    url: str
    name: str
    size: int


class Downloads:
    """The scored files waiting to be downloaded, each under a random token; thread-safe."""

    def __init__(self, folders: JobFolders, keep_s: float) -> None:
        self.folders = folders
        self.keep_s = keep_s
        self._lock = threading.Lock()
        self._files: Dict[str, Tuple[Path, float]] = {}

    def clean_stale(self) -> None:
        """At start: remove what earlier, dead processes left behind."""
        self.folders.clean_stale()

    def add(self, source: Path, request: Optional[gr.Request] = None) -> Download:
        """Move ``source`` here; returns its download under the same file name, addressed for
        the visitor who sent ``request``."""
        self.expire()
        folder = self.folders.new()
        target = folder / source.name
        shutil.move(str(source), target)
        token = secrets.token_urlsafe(16)
        with self._lock:
            self._files[token] = (target, time.time())
        return Download(public_url(request, f"{ROUTE}/{token}/{quote(source.name)}"), source.name,
                        target.stat().st_size)

    def find(self, token: str, name: str) -> Optional[Path]:
        """The file behind ``token`` if it is still kept and is named ``name``, else None."""
        with self._lock:
            path, added = self._files.get(token, (None, 0.0))
        if path is None or path.name != name or time.time() - added > self.keep_s or not path.is_file():
            return None
        return path

    def expire(self) -> None:
        """Forget and remove the files older than ``keep_s``."""
        oldest = time.time() - self.keep_s
        with self._lock:
            expired = [token for token, (_, added) in self._files.items() if added < oldest]
            folders = [self._files.pop(token)[0].parent for token in expired]
        for folder in folders:
            shutil.rmtree(folder, ignore_errors=True)

    def routes(self) -> List[Any]:
        """The Starlette routes that serve the files (``launch(app_kwargs={"routes": ...})``).

        The second answers ``gradio_client``, which fetches every file as
        ``/gradio_api/file=<its address>``: gradio itself would fetch that address over the network
        (and refuse a private one), so the same file is served from here instead.
        """
        # Deferred: starlette is heavy, imported on first use.
        from starlette.responses import FileResponse, PlainTextResponse
        # Deferred: starlette is heavy, imported on first use.
        from starlette.routing import Route

        def serve(request):
            path = self.find(request.path_params["token"], request.path_params["name"])
            if path is None:
                return PlainTextResponse("This download has expired or does not exist: score the file "
                                         "again on the page.", status_code=404)
            return FileResponse(path, media_type="text/csv", filename=path.name)

        return [Route(ROUTE + "/{token}/{name}", serve, methods=["GET", "HEAD"]),
                Route("/gradio_api/file={address:path}" + ROUTE + "/{token}/{name}", serve, methods=["GET", "HEAD"])]


def public_url(request: Optional[gr.Request], path: str) -> str:
    """``path`` on this server as the visitor reaches it: the root gradio gives its own files
    (behind a proxy too), or the path itself without a request."""
    # Deferred: gradio is heavy, imported on first use.
    from gradio import route_utils

    raw = getattr(request, "request", None) if request is not None else None
    if raw is None:
        return path
    try:
        route = route_utils.get_api_call_path(request=raw)
    except ValueError:  # not one of gradio's API paths: the server's own address
        return str(raw.base_url).rstrip("/") + path
    return route_utils.get_root_url(request=raw, route_path=route, root_path=getattr(raw.app, "root_path", None)) + path


def download_file(**file_options: Any) -> gr.File:
    """A ``gr.File`` output that also takes a ``Download``: it links the file's neutral address
    instead of a file in gradio's cache.

    Its ``postprocess`` is wrapped on the instance, as in ``text.text_field``: a subclass of a
    gradio component would make gradio write a ``.pyi`` stub beside this module.
    """
    # Deferred: gradio is heavy, imported on first use.
    from gradio.data_classes import FileData

    component = gr.File(**file_options)
    postprocess = component.postprocess

    def neutral_postprocess(value: Any) -> Any:
        if isinstance(value, Download):
            # An http(s) url is passed on as it is, never moved into gradio's cache.
            return FileData(path=value.url, url=value.url, orig_name=value.name, size=value.size)
        return postprocess(value)

    component.postprocess = neutral_postprocess
    return component
